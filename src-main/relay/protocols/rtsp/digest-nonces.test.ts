import { describe, expect, it } from 'vitest';
import { createDigestNonces, NONCE_LIFETIME_MS } from './digest-nonces';

describe('Digest nonces of the RTSP server', () => {
  it('issues a new nonce per challenge, fresh for a while, then expired and forgotten', () => {
    let now = 1_000;
    const nonces = createDigestNonces(() => now);
    const first = nonces.issue();
    const second = nonces.issue();
    expect(first).not.toBe(second);
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(nonces.check(first)).toBe('fresh');
    expect(nonces.check('0123456789abcdef0123456789abcdef')).toBe('unknown');
    now += NONCE_LIFETIME_MS + 1;
    expect(nonces.check(first)).toBe('expired');
    expect(nonces.check(first)).toBe('unknown');
  });

  it('keeps at most a bounded number of unanswered challenges', () => {
    const nonces = createDigestNonces(() => 0);
    const oldest = nonces.issue();
    for (let i = 0; i < 2_000; i++) nonces.issue();
    expect(nonces.check(oldest)).toBe('unknown');
  });
});
