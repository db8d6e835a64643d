import type { IncomingMessage } from 'node:http';
import { safeEqual } from '../safe-equal';
import { HttpError } from './http-error';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses a write from a page of another origin (a drive-by POST from a web page the user
 * visits must never reach /api/config or /api/streams). Requests without Origin or Sec-Fetch-Site
 * are from tools (curl, ffmpeg, Home Assistant) and pass; the console's own pages send the
 * matching origin.
 */
export function assertSameOriginWrite(req: IncomingMessage, allowedOrigins: readonly string[] = []): void {
  if (SAFE_METHODS.has(req.method ?? 'GET')) return;
  const origin = req.headers.origin;
  if (origin === undefined) {
    // Browsers send Origin with every write today; one that did not still says where it came from.
    const site = req.headers['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site')
      throw new HttpError(403, `cross-site write refused: the request came from a page of another site (Sec-Fetch-Site: ${site})`);
    return;
  }
  if (isOwnOrigin(req, origin) || allowedOrigins.includes(origin)) return;
  throw new HttpError(403, `cross-origin write refused: origin ${origin} is not this console`);
}

/**
 * Whether a page's origin is this server. A reverse proxy (Frigate's nginx) forwards `Host`
 * without the port while the page sits on the proxy's port: with no port in `Host`, the host
 * names are compared, as go2rtc does. A `Host` that names a port must match it, so a page of
 * another local app (localhost:5000 calling localhost:1984) stays another origin. Where the
 * proxy also says which host and port the browser addressed (`X-Forwarded-Host`, which
 * Frigate's nginx sets from the request), the page must match that exactly: a page of another
 * app on another port of the proxy's host is then refused too. A browser cannot set that header
 * itself, so it only ever narrows what is accepted.
 */
export function isOwnOrigin(req: IncomingMessage, origin: string): boolean {
  const host = req.headers.host ?? '';
  const page = parseOrigin(origin);
  if (!page) return false;
  if (page.host === host) return true;
  if (HOST_WITH_PORT.test(host)) return false;
  const forwarded = forwardedHost(req);
  if (forwarded !== undefined && HOST_WITH_PORT.test(forwarded)) return page.host.toLowerCase() === forwarded.toLowerCase();
  return page.hostname.toLowerCase() === host.toLowerCase();
}

/** The first proxy's `X-Forwarded-Host` (a chain lists one per proxy). */
function forwardedHost(req: IncomingMessage): string | undefined {
  const header = req.headers['x-forwarded-host'];
  const value = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim();
  return value ? value : undefined;
}

/** The origin with its port exactly as `Host` says: for the console's own channel, never proxied. */
export function isExactOwnOrigin(req: IncomingMessage, origin: string): boolean {
  return parseOrigin(origin)?.host === req.headers.host;
}

const HOST_WITH_PORT = /:\d+$/;

function parseOrigin(origin: string): URL | undefined {
  if (origin === 'null') return undefined;
  try {
    return new URL(origin);
  } catch {
    return undefined;
  }
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?$/i;

export function isLoopbackAddress(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * A server bound to loopback answers only requests addressed to a loopback name. A web page on
 * another domain that re-resolves its own name to 127.0.0.1 (DNS rebinding) would otherwise be
 * "same origin" with the console and could read the page and its session token.
 */
export function assertLoopbackHost(req: IncomingMessage): void {
  const host = req.headers.host ?? '';
  if (!LOOPBACK_HOST.test(host)) {
    throw new HttpError(403, `host ${host || '(none)'} refused: this server answers only on localhost`);
  }
}

export interface BasicCredentials {
  username: string;
  password: string;
}

/** Optional Basic auth (`api.username` / `api.password`): 401 with a challenge when missing or wrong. */
export function assertBasicAuth(req: IncomingMessage, credentials: BasicCredentials | undefined): void {
  if (!credentials) return;
  const header = req.headers.authorization ?? '';
  const match = /^Basic\s+(.+)$/i.exec(header);
  if (match?.[1]) {
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    const sep = decoded.indexOf(':');
    if (sep >= 0 && safeEqual(decoded.slice(0, sep), credentials.username) && safeEqual(decoded.slice(sep + 1), credentials.password)) {
      return;
    }
  }
  throw new HttpError(401, 'authentication required');
}
