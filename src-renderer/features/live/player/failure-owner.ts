import type { PlayerFailure } from './player-types';

/**
 * Whose failure this is. `source`: the relay's answer names why the camera cannot be had (it is
 * down, refuses the login, the stream does not exist); every other mode would get the same
 * answer, so the tile says it at once and retries the same mode. `mode`: this way of playing
 * failed (blocked, not supported, cannot decode, no answer); the next mode may work.
 */
export type FailureOwner = { owner: 'source'; cause: string } | { owner: 'mode' };

/**
 * The relay saying the source is at fault: this relay's sentences, and go2rtc's (`streams: ...`
 * for a source it could not open). Without this framing a code like 404 in a body is the
 * endpoint's own (a relay without that output), not the camera's.
 */
const SOURCE_BLAMED = /no source is reachable|has no source|stream not found|no such stream|^streams?: /i;

/** Known causes inside that sentence, most specific first, in the words a user reads. */
const SOURCE_CAUSES: ReadonlyArray<readonly [RegExp, string]> = [
  [/ECONNREFUSED|connection refused/i, 'connection refused'],
  [/EHOSTUNREACH|ENETUNREACH|no route to host|unreachable/i, 'camera unreachable'],
  [/ETIMEDOUT|timed? ?out/i, 'the camera did not answer in time'],
  [/ENOTFOUND|EAI_AGAIN|getaddrinfo|no such host/i, 'host name not found'],
  [/ECONNRESET|connection reset/i, 'connection reset by the camera'],
  [/\b401\b|unauthori[sz]ed/i, 'login refused (401 Unauthorized)'],
  [/\b403\b|forbidden/i, 'access forbidden (403)'],
  [/\b404\b/, 'the camera has no such path (404)'],
  [/stream not found|no such stream/i, 'stream not found'],
  [/has no source/i, 'nothing is publishing to this stream'],
];

/**
 * Decides from the relay's answer whether the source or the mode failed. Only an answer the relay
 * gave (an HTTP status with its text, or its WebSocket error message) can blame the source: a
 * failed connection, a timeout or a codec the browser lacks says nothing about the camera.
 * A bare status is not enough either (a proxy or a blocked endpoint answers 503 too): the text
 * must be the relay blaming the source.
 */
export function failureOwner(failure: PlayerFailure): FailureOwner {
  const answered =
    (failure.reason === 'endpoint' && (failure.status === undefined || [400, 404, 500, 502, 503, 504].includes(failure.status))) ||
    failure.reason === 'offline';
  if (!answered || !SOURCE_BLAMED.test(failure.detail)) return { owner: 'mode' };
  // "codecs not matched" names the source too, but another mode may take the codecs it has.
  if (/codecs? not matched|not supported|unsupported/i.test(failure.detail)) return { owner: 'mode' };
  const cause = SOURCE_CAUSES.find(([pattern]) => pattern.test(failure.detail))?.[1];
  return { owner: 'source', cause: cause ?? 'the source is not reachable' };
}
