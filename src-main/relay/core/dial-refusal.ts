/**
 * Whether a failed dial is the source saying no: the camera's host refuses the connection, its
 * name does not resolve, or the camera answers 401, 403 or 404. Dialing again a second later gets
 * the same answer, so the viewer waiting on a first dial is told at once (as go2rtc does) instead
 * of after the whole first-dial budget; the viewer's own player retries with backoff.
 * A timeout, a reset or a garbled answer is not a refusal: the camera may be busy or rebooting.
 */
export function isDialRefusal(error: unknown): boolean {
  // Protocols wrap socket errors with their own sentence and keep the original as `cause`.
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const { permanent, code, status, cause } = current as { permanent?: unknown; code?: unknown; status?: unknown; cause?: unknown };
    if (permanent === true) return true;
    if (typeof code === 'string' && REFUSING_CODES.has(code)) return true;
    if (typeof status === 'number' && REFUSING_STATUSES.has(status)) return true;
    current = cause;
  }
  return false;
}

const REFUSING_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND']);
const REFUSING_STATUSES = new Set([401, 403, 404]);
