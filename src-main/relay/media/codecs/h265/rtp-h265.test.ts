import { describe, expect, it } from 'vitest';
import type { RtpPacket } from '@main/relay/core/rtp-packet';
import { fixture } from '@main/relay/test/media-fixtures';
import { splitAnnexB, toAvcc } from '../h264/nal';
import { createH265Depacketizer, h265NalType, packetizeH265 } from './rtp-h265';

/** Access units of a real x265 encode: a VCL unit with first_slice_segment_in_pic_flag, or VPS/SPS/PPS/SEI, starts one. */
function accessUnits(units: Uint8Array[]): Uint8Array[][] {
  const aus: Uint8Array[][] = [];
  let current: Uint8Array[] = [];
  let hasSlice = false;
  for (const unit of units) {
    const type = h265NalType(unit);
    const isSlice = type < 32;
    if (hasSlice && ((isSlice && (unit[2]! & 0x80) !== 0) || (type >= 32 && type <= 40))) {
      aus.push(current);
      current = [];
      hasSlice = false;
    }
    current.push(unit);
    hasSlice ||= isSlice;
  }
  if (current.length > 0) aus.push(current);
  return aus;
}

describe('H.265 over RTP', () => {
  it('round-trips a real x265 stream through FU and single-NAL packets', () => {
    const clip = fixture('h265-320x240-1s.hevc'); // 1 s of x265: 25 frames, one keyframe, no B-frames
    const aus = accessUnits(splitAnnexB(clip));
    expect(aus).toHaveLength(25);
    let seq = 0;
    const packets: RtpPacket[] = aus.flatMap((au, i) =>
      packetizeH265(au, 400).map(({ payload, marker }) => ({
        payload,
        marker,
        payloadType: 96,
        ssrc: 1,
        sequenceNumber: seq++,
        timestamp: i * 3600,
      })),
    );
    expect(packets.some((p) => h265NalType(p.payload) === 49)).toBe(true);
    const depay = createH265Depacketizer();
    const frames = packets.flatMap((p) => depay.push(p));
    expect(frames).toHaveLength(25);
    frames.forEach((frame, i) => expect(Buffer.from(frame.data).equals(Buffer.from(toAvcc(aus[i]!)))).toBe(true));
    expect(frames[0]!.keyframe).toBe(true);
    expect(frames.filter((f) => f.keyframe)).toHaveLength(1);
    expect(depay.stats).toMatchObject({ lost: 0, errors: 0 });
  });
});
