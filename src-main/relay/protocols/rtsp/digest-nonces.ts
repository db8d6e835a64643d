import { randomBytes } from 'node:crypto';

/** How long a nonce from a challenge may be answered; the connection that used it keeps it. */
export const NONCE_LIFETIME_MS = 60_000;
/** Challenges nobody answered are forgotten oldest first past this many. */
const MAX_OPEN_NONCES = 1024;

export type NonceState = 'fresh' | 'expired' | 'unknown';

/**
 * The nonces of one RTSP server's Digest challenges: a new one per challenge, valid for a short
 * while, so a captured Authorization header stops opening streams once its nonce is old.
 */
export interface DigestNonces {
  issue(): string;
  check(nonce: string): NonceState;
}

export function createDigestNonces(now: () => number = Date.now): DigestNonces {
  const issued = new Map<string, number>();
  return {
    issue() {
      const nonce = randomBytes(16).toString('hex');
      issued.set(nonce, now() + NONCE_LIFETIME_MS);
      while (issued.size > MAX_OPEN_NONCES) issued.delete(issued.keys().next().value!);
      return nonce;
    },
    check(nonce) {
      const expires = issued.get(nonce);
      if (expires === undefined) return 'unknown';
      if (now() > expires) {
        issued.delete(nonce);
        return 'expired';
      }
      return 'fresh';
    },
  };
}
