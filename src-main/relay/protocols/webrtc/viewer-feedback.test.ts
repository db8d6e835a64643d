import { describe, expect, it } from 'vitest';
import {
  GenericNack,
  RtcpPayloadSpecificFeedback,
  RtcpReceiverInfo,
  RtcpRrPacket,
  RtcpTransportLayerFeedback,
  PictureLossIndication,
} from 'werift';
import { readViewerFeedback, RtcpFormatError } from './viewer-feedback';

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');

describe('a viewer RTCP as the relay reads it', () => {
  it('reads what werift (the viewer side) writes: a receiver report, a NACK and a PLI in one compound packet', () => {
    const rr = new RtcpRrPacket({
      ssrc: 0x11,
      reports: [
        new RtcpReceiverInfo({ ssrc: 0xcafe0001, fractionLost: 12, packetsLost: 34, highestSequence: 7, jitter: 1, lsr: 0, dlsr: 0 }),
      ],
    });
    const nack = new RtcpTransportLayerFeedback({
      feedback: new GenericNack({ senderSsrc: 0x11, mediaSourceSsrc: 0xcafe0001, lost: [100, 101, 105, 117, 400] }),
    });
    const pli = new RtcpPayloadSpecificFeedback({ feedback: new PictureLossIndication({ senderSsrc: 0x11, mediaSsrc: 0xcafe0002 }) });
    const compound = Buffer.concat([rr.serialize(), nack.serialize(), pli.serialize()]);
    expect(readViewerFeedback(compound)).toEqual([
      { kind: 'report', ssrc: 0xcafe0001, fractionLost: 12, packetsLost: 34 },
      { kind: 'nack', ssrc: 0xcafe0001, lost: [100, 101, 105, 117, 400] },
      { kind: 'keyframe', ssrc: 0xcafe0002 },
    ]);
  });

  it("reads a sender report's blocks, a negative cumulative loss, a NACK across the sequence wrap and a FIR per named SSRC", () => {
    const sr = hex('81c8000c 00000011 00000000 00000000 00000000 00000000 00000000  cafe0001 05fffffe 00000000 00000000 00000000 00000000');
    const nack = hex('81cd0003 00000011 cafe0001 fffe0003');
    const fir = hex('84ce0006 00000011 00000000 cafe0001 01000000 cafe0002 02000000');
    const sdes = hex('81ca0002 00000011 00000000');
    expect(readViewerFeedback(Buffer.concat([sr, sdes, nack, fir]))).toEqual([
      { kind: 'report', ssrc: 0xcafe0001, fractionLost: 5, packetsLost: -2 },
      { kind: 'nack', ssrc: 0xcafe0001, lost: [0xfffe, 0xffff, 0] },
      { kind: 'keyframe', ssrc: 0xcafe0001 },
      { kind: 'keyframe', ssrc: 0xcafe0002 },
    ]);
  });

  it('refuses what does not parse, saying where', () => {
    expect(() => readViewerFeedback(hex('81c90007 00000011'))).toThrow(RtcpFormatError);
    expect(() => readViewerFeedback(hex('41c90001 00000011'))).toThrow(/version 1/);
    expect(() => readViewerFeedback(hex('82c90001 00000011'))).toThrow(/2 report blocks do not fit/);
    expect(() => readViewerFeedback(hex('81cd0001 00000011'))).toThrow(/shorter than its 12-byte header/);
    expect(() => readViewerFeedback(hex('80c90001 00000011 0000'))).toThrow(/less than a header/);
    expect(readViewerFeedback(new Uint8Array(0))).toEqual([]);
  });
});
