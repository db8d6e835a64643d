import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SrtcpSession } from 'werift';
import { fuzzBudget, fuzzTimeout } from '@main/test-support/fuzz-budget';
import { SRTP_AES128_CM_HMAC_SHA1_80 } from './srtp/srtp-keys';
import { SrtcpUnprotector } from './srtp/srtcp-unprotect';
import { readViewerFeedback, RtcpFormatError } from './viewer-feedback';

/** RTCP-looking packets: version 2 headers of the types the reader knows, with any count, length and body. */
const rtcpLike = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 31 }), fc.constantFrom(200, 201, 202, 203, 205, 206), fc.uint8Array({ maxLength: 120 })), {
    minLength: 1,
    maxLength: 5,
  })
  .map((packets) =>
    Buffer.concat(
      packets.map(([count, type, body]) => {
        const words = Math.floor(body.length / 4);
        const header = Buffer.from([0x80 | count, type, 0, 0]);
        header.writeUInt16BE(words, 2); // one word short of the body, or exactly right: both must be handled
        return Buffer.concat([header, body]);
      }),
    ),
  );

describe('fuzz: what viewers send back on the shared port', () => {
  it(
    'any packet is read as feedback or refused with RtcpFormatError, never another exception, and NACKs name 16-bit numbers',
    () => {
      fc.assert(
        fc.property(fc.oneof(fc.uint8Array({ maxLength: 600 }), rtcpLike), (bytes) => {
          try {
            for (const item of readViewerFeedback(bytes)) {
              expect(item.ssrc).toBeGreaterThanOrEqual(0);
              if (item.kind === 'nack') for (const lost of item.lost) expect(lost).toBeLessThanOrEqual(0xffff);
            }
          } catch (error) {
            expect(error).toBeInstanceOf(RtcpFormatError);
          }
        }),
        fuzzBudget(),
      );
    },
    fuzzTimeout(),
  );

  it(
    'SRTCP: garbage and damaged packets are refused (undefined), never an exception; an intact one opens once',
    () => {
      const key = randomBytes(16);
      const salt = randomBytes(14);
      const viewer = new SrtcpSession({
        keys: { localMasterKey: key, localMasterSalt: salt, remoteMasterKey: randomBytes(16), remoteMasterSalt: randomBytes(14) },
        profile: SRTP_AES128_CM_HMAC_SHA1_80,
      });
      fc.assert(
        // An SRTCP packet has at least its first header and SSRC.
        fc.property(
          rtcpLike.filter((packet) => packet.length >= 8),
          fc.uint8Array({ maxLength: 200 }),
          fc.nat(),
          (plain, garbage, flip) => {
            const relay = SrtcpUnprotector.fromMaster(SRTP_AES128_CM_HMAC_SHA1_80, key, salt)!;
            expect(relay.unprotect(Buffer.from(garbage))).toBeUndefined();
            const sealed = viewer.encrypt(plain);
            const damaged = Buffer.from(sealed);
            damaged[flip % damaged.length]! ^= 1 << (flip % 8);
            expect(relay.unprotect(damaged)).toBeUndefined();
            expect(relay.unprotect(sealed)?.equals(plain)).toBe(true);
            expect(relay.unprotect(sealed)).toBeUndefined();
          },
        ),
        fuzzBudget(),
      );
    },
    fuzzTimeout(),
  );
});
