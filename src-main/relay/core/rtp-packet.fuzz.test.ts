import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzBudget, fuzzTimeout, valueOrTypedError } from '../../test-support/fuzz-budget';
import { findSenderReport } from '../protocols/rtsp/rtsp-client-udp-rtcp';
import { parseRtpPacket, RtpParseError, serializeRtpPacket } from './rtp-packet';

describe('fuzz: RTP and RTCP', () => {
  it(
    'any datagram parses as RTP or throws RtpParseError, and the payload lies within the datagram',
    () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 1500 }), (bytes) =>
          valueOrTypedError(() => {
            const packet = parseRtpPacket(bytes);
            expect(packet.payload.byteOffset).toBeGreaterThanOrEqual(bytes.byteOffset);
            expect(packet.payload.byteOffset + packet.payload.length).toBeLessThanOrEqual(bytes.byteOffset + bytes.length);
          }, RtpParseError),
        ),
        fuzzBudget(),
      );
    },
    fuzzTimeout(),
  );

  it(
    'a packet written and read back is the same packet',
    () => {
      const packet = fc.record({
        marker: fc.boolean(),
        payloadType: fc.integer({ min: 0, max: 127 }),
        sequenceNumber: fc.integer({ min: 0, max: 0xffff }),
        timestamp: fc.integer({ min: 0, max: 0xffffffff }),
        ssrc: fc.integer({ min: 0, max: 0xffffffff }),
        payload: fc.uint8Array({ maxLength: 200 }),
      });
      fc.assert(
        fc.property(packet, (p) => {
          const { payload, ...header } = parseRtpPacket(serializeRtpPacket(p));
          expect(header).toEqual({
            marker: p.marker,
            payloadType: p.payloadType,
            sequenceNumber: p.sequenceNumber,
            timestamp: p.timestamp,
            ssrc: p.ssrc,
          });
          expect(Buffer.from(payload).equals(Buffer.from(p.payload))).toBe(true);
        }),
        fuzzBudget(),
      );
    },
    fuzzTimeout(),
  );

  it(
    'an RTCP compound packet of any bytes gives a sender report or nothing, never an exception',
    () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => valueOrTypedError(() => findSenderReport(Buffer.from(bytes)))),
        fuzzBudget(),
      );
    },
    fuzzTimeout(),
  );
});
