import { HttpError } from '@main/platform/http/http-error';
import type { RouteHandler } from '@main/platform/http/router';
import type { KodoClient } from '../kodo-client';
import { openObjectSource } from '../object-source';
import { UNTRUSTED_CONTENT_HEADERS } from '../untrusted-content';
import type { PreviewTickets } from './preview-tickets';
import { networkProblem } from '../kodo-errors';
import { ContractFailure } from '@shared/contract/result';

/** GET `<path><ticket>`: the object (or its processed view) through the console's own origin. */
export const PREVIEW_PATH = '/console/preview/';

/** Types a page may render from this origin as they are; everything else is shown as plain text. */
const SAFE_TYPE = /^(image\/(jpeg|png|gif|webp|avif|bmp)|video\/[\w.+-]+|audio\/[\w.+-]+)$/i;
const PASSED_HEADERS = ['content-length', 'content-range', 'accept-ranges', 'last-modified', 'etag'];

/**
 * Streams what a preview ticket names from the bucket's domain (signed for private buckets),
 * passing Range through so a video can seek. The object is the user's content on the console's
 * origin, so nothing in it may run: HTML, SVG and the rest are sent as text/plain, with a CSP
 * that sandboxes the response should it be opened on its own.
 */
export function createPreviewProxy(tickets: PreviewTickets, clientFor: (accountId: string) => Promise<KodoClient>): RouteHandler {
  return async ({ req, res, url }) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      throw new HttpError(405, 'a preview is read with GET');
    }
    const target = tickets.find(url.pathname.slice(PREVIEW_PATH.length));
    if (!target) throw new HttpError(404, 'this preview address expired or never existed; open the object again');
    const client = await clientFor(target.accountId);
    // A bucket with nothing to download from (no domain) is a state the user can change, not a
    // fault of the console: it answers 409 with the reason rather than 500.
    const source = await client
      .downloadSource(target.bucket, target.key, Math.floor(Date.now() / 1000) + 600, target.fop)
      .catch((error: unknown) => {
        if (error instanceof ContractFailure) throw new HttpError(error.code === 'not_found' ? 404 : 409, error.message);
        throw error;
      });
    const range = req.headers.range;
    const upstream = await openObjectSource(source, { method: req.method, headers: range ? { Range: range } : {} }).catch(
      (error: unknown) => {
        throw new HttpError(502, `the storage service could not be reached: ${networkProblem(error)}`);
      },
    );
    const status = upstream.statusCode ?? 502;
    if (status >= 400) {
      upstream.resume();
      throw new HttpError(status < 500 ? status : 502, `the storage service answered HTTP ${status} for this preview`);
    }
    const type = String(upstream.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim();
    const headers: Record<string, string> = {
      'Content-Type': SAFE_TYPE.test(type) ? type : 'text/plain; charset=utf-8',
      ...UNTRUSTED_CONTENT_HEADERS,
      'Cache-Control': 'private, max-age=300',
      'Cross-Origin-Resource-Policy': 'same-origin',
    };
    for (const name of PASSED_HEADERS) {
      const value = upstream.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    res.writeHead(status, headers);
    upstream.pipe(res);
    res.on('close', () => upstream.destroy());
  };
}
