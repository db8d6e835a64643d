import { describe, expect, it } from 'vitest';
import { TokenBucket } from './token-bucket';

describe('TokenBucket', () => {
  it('allows a full bucket at once, then the rate, and never more than the bucket after a pause', () => {
    const bucket = new TokenBucket(64, 4, 1000);
    expect(bucket.available(1000)).toBe(64);
    bucket.take(64);
    expect(bucket.available(1000)).toBe(0);
    expect(bucket.available(1000.5)).toBe(2);
    expect(bucket.available(1002.5)).toBe(10);
    bucket.take(10);
    expect(bucket.available(1002.5)).toBe(0);
    expect(bucket.available(5000)).toBe(64);
  });

  it('keeps fractions of a send across calls, so a fast timer still paces at the rate', () => {
    const bucket = new TokenBucket(64, 4, 0);
    bucket.take(64);
    let sent = 0;
    for (let step = 1; step <= 800; step++) {
      const n = bucket.available(step * 0.125); // half a send a call
      bucket.take(n);
      sent += n;
    }
    expect(sent).toBe(400);
  });
});
