import type { IncomingMessage, ServerResponse } from 'node:http';
import { isOwnOrigin } from './request-guard';

/**
 * Which pages of other sites may read the API's answers (go2rtc's `api.origin`): none unless
 * configured; `"*"` any; otherwise the origins listed (`https://dash.example.com`).
 */
export type AllowedOrigins = readonly string[];

/** A request sent by a page of another site: it carries an Origin that is not this server's. */
function isForeignOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  return origin !== undefined && !isOwnOrigin(req, origin);
}

/**
 * A request that a page of another site made the browser send. Browsers leave `Origin` out of a
 * plain GET (an `<img>`, a `<video>`, a link), so its absence proves nothing: `Sec-Fetch-Site`
 * (every current browser sends it with a fetch or a navigation, though Chromium not with a
 * WebSocket handshake, which always carries Origin instead) says `cross-site` or `same-site` for another site's page (a
 * page of another local app on another port is `same-site`), and where a browser sends no
 * Sec-Fetch-Site, a `Referer` names the page. Tools (curl, ffmpeg, Home Assistant) send none of
 * these and pass; so do a person typing the URL (`Sec-Fetch-Site: none`) and the console's own
 * page (`same-origin`).
 */
export function isCrossSiteRequest(req: IncomingMessage): boolean {
  if (isForeignOrigin(req)) return true;
  const site = req.headers['sec-fetch-site'];
  // The browser compared the page's origin with the request's itself: behind a reverse proxy
  // (Frigate's nginx) the Host it forwards need not match the page's, so its word wins.
  if (site !== undefined) return site === 'cross-site' || site === 'same-site';
  const referer = req.headers.referer;
  return referer !== undefined && referer !== '' && !isOwnOrigin(req, referer);
}

/** Who sent a cross-site request, as far as the browser says: for messages. */
export function crossSiteCaller(req: IncomingMessage): string {
  const origin = req.headers.origin ?? (req.headers.referer ? safeOrigin(req.headers.referer) : undefined);
  return origin ? `a page of ${origin}` : 'a page of another site';
}

function safeOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** The `Access-Control-Allow-Origin` value for this request, or undefined when CORS stays closed. */
export function allowedOriginFor(req: IncomingMessage, allowed: AllowedOrigins): string | undefined {
  const origin = req.headers.origin;
  if (origin === undefined || !isForeignOrigin(req)) return undefined;
  if (allowed.includes('*')) return '*';
  return allowed.includes(origin) ? origin : undefined;
}

/**
 * Opens reads to the origins `api.origin` allows, as go2rtc's CORS middleware does, and answers
 * their preflights; writes from other origins stay refused by the same-origin write guard.
 * Returns true when the request was a preflight and has been answered.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse, allowed: AllowedOrigins): boolean {
  const value = allowedOriginFor(req, allowed);
  if (!value) return false;
  res.setHeader('Access-Control-Allow-Origin', value);
  if (value !== '*') res.setHeader('Vary', 'Origin');
  if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined) return false;
  res.writeHead(204, {
    'Access-Control-Allow-Methods': 'GET, OPTIONS',
    'Access-Control-Allow-Headers': 'Authorization, Content-Type',
    'Access-Control-Max-Age': '600',
  });
  res.end();
  return true;
}
