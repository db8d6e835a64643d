import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzBudget, fuzzTimeout } from '@main/test-support/fuzz-budget';
import { consentAnswer, readdressedAnswer } from './consent-answer';
import { bindingRequestUsername, bindingSuccess, mappedAddress, readStunHeader } from './stun';

describe('fuzz: STUN on the shared ICE port', () => {
  it(
    'any datagram (or a STUN header with any attributes after it) is read without an exception',
    () => {
      const stunLike = fc
        .tuple(fc.integer({ min: 0, max: 0x3fff }), fc.uint8Array({ minLength: 12, maxLength: 12 }), fc.uint8Array({ maxLength: 600 }))
        .map(([type, id, body]) => {
          const header = Buffer.alloc(20);
          header.writeUInt16BE(type, 0);
          header.writeUInt16BE(body.length - (body.length % 4), 2);
          header.writeUInt32BE(0x2112a442, 4);
          Buffer.from(id).copy(header, 8);
          return new Uint8Array(Buffer.concat([header, body]));
        });
      fc.assert(
        fc.property(fc.oneof(fc.uint8Array({ maxLength: 1500 }), stunLike), (bytes) => {
          readStunHeader(bytes);
          const username = bindingRequestUsername(bytes);
          if (username !== undefined) expect(Buffer.byteLength(username)).toBeLessThanOrEqual(bytes.length);
          mappedAddress(bytes);
          // Nobody signed these with the password: the port never answers them.
          expect(consentAnswer(Buffer.from(bytes), Buffer.from('password'), { address32: 0x7f000001, port: 9 })).toBeUndefined();
          // What werift sends back is readdressed only when it is a binding success, always in its transaction.
          const readdressed = readdressedAnswer(Buffer.from(bytes), Buffer.from('password'), { address32: 0x7f000001, port: 9 });
          if (readdressed)
            expect([readStunHeader(readdressed)?.type, readdressed.subarray(8, 20)]).toEqual([0x0101, Buffer.from(bytes.subarray(8, 20))]);
          else expect(readStunHeader(bytes)?.type === 0x0101 && bytes.length >= 20).toBe(false);
        }),
        fuzzBudget(),
      );
    },
    fuzzTimeout(),
  );

  it(
    'every IPv4 address and port a server reports is read back as it was',
    () => {
      fc.assert(
        fc.property(fc.ipV4(), fc.integer({ min: 1, max: 65535 }), fc.uint8Array({ minLength: 12, maxLength: 12 }), (address, port, id) => {
          expect(mappedAddress(bindingSuccess(Buffer.from(id).toString('hex'), { address, port }))).toEqual({ address, port });
        }),
        fuzzBudget(),
      );
    },
    fuzzTimeout(),
  );
});
