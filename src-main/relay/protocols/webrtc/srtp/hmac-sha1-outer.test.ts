import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HmacSha1Outer } from './hmac-sha1-outer';

/** HMAC-SHA1 with the inner hash by Node and the outer by `HmacSha1Outer`. */
function hmac(key: Buffer, message: Buffer, length = 20): Buffer {
  const innerPad = Buffer.alloc(64, 0x36);
  for (let i = 0; i < key.length; i++) innerPad[i]! ^= key[i]!;
  const inner = createHash('sha1').update(innerPad).update(message).digest('hex');
  const out = Buffer.alloc(length + 2, 0xee);
  new HmacSha1Outer(key).digestHex(inner, out, 1, length);
  // Nothing outside the bytes asked for is written.
  expect([out[0], out[length + 1]]).toEqual([0xee, 0xee]);
  return out.subarray(1, 1 + length);
}

describe('HMAC-SHA1 outer hash', () => {
  it('gives the tags of RFC 2202 test cases 1 and 2', () => {
    expect(hmac(Buffer.alloc(20, 0x0b), Buffer.from('Hi There')).toString('hex')).toBe('b617318655057264e28bc0b6fb378c8ef146be00');
    expect(hmac(Buffer.from('Jefe'), Buffer.from('what do ya want for nothing?')).toString('hex')).toBe(
      'effcdf6ae5eb2fa2d27416d5f184df9c259a7c79',
    );
  });

  it("matches Node's HMAC for SRTP's 20-byte keys, cut to 80 bits", () => {
    for (let i = 0; i < 50; i++) {
      const key = randomBytes(20);
      const message = randomBytes(i * 37);
      expect(hmac(key, message, 10).toString('hex')).toBe(createHmac('sha1', key).update(message).digest().subarray(0, 10).toString('hex'));
    }
  });
});
