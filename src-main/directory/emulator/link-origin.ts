import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/**
 * Batch steps run as requests of their own over loopback http; these headers carry the scheme
 * and host the batch came in on, so a step's links are the ones its caller can follow. They
 * count only with the key of this emulator instance, which only its batch route knows.
 */
export const STEP_ORIGIN_HEADER = 'x-emulator-step-origin';
export const STEP_KEY_HEADER = 'x-emulator-step-key';

const HOST = /^[\w.-]+(:\d+)?$|^\[[0-9a-f:.]+\](:\d+)?$/i;

/**
 * `scheme://host` as the client reached us, for the links a reply carries (`@odata.nextLink`,
 * `@odata.context`, `Location`): https when the connection is TLS, the Host header when it is a
 * plain host name (else the listening address).
 */
export function linkOrigin(req: IncomingMessage, fallbackUrl: string, stepKey: string): string {
  const step = stepOrigin(req, stepKey);
  if (step) return step;
  const host = req.headers.host && HOST.test(req.headers.host) ? req.headers.host : new URL(fallbackUrl).host;
  return `${(req.socket as TLSSocket).encrypted ? 'https' : 'http'}://${host}`;
}

function stepOrigin(req: IncomingMessage, stepKey: string): string | undefined {
  const origin = req.headers[STEP_ORIGIN_HEADER];
  const key = req.headers[STEP_KEY_HEADER];
  if (typeof origin !== 'string' || typeof key !== 'string') return undefined;
  const sent = Buffer.from(key);
  const expected = Buffer.from(stepKey);
  return sent.length === expected.length && timingSafeEqual(sent, expected) ? origin : undefined;
}
