import { describe, expect, it } from 'vitest';
import { parseRtpPacket, type RtpPacket } from '@main/relay/core/rtp-packet';
import { fixture, rtpCapture } from '@main/relay/test/media-fixtures';
import { fromAvcc, h264NalType, splitAnnexB, toAvcc } from './nal';
import { createH264Depacketizer, packetizeH264 } from './rtp-h264';

/** Groups NAL units into access units: a slice with first_mb_in_slice 0, or SPS/PPS/SEI/AUD, starts one. */
function accessUnits(units: Uint8Array[]): Uint8Array[][] {
  const aus: Uint8Array[][] = [];
  let current: Uint8Array[] = [];
  let hasSlice = false;
  for (const unit of units) {
    const type = h264NalType(unit);
    const isSlice = type === 1 || type === 5;
    const startsNew = hasSlice && ((isSlice && (unit[1]! & 0x80) !== 0) || [6, 7, 8, 9].includes(type));
    if (startsNew) {
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

const toPackets = (aus: Uint8Array[][], mtu: number): RtpPacket[] => {
  let seq = 65530; // wraps during the clip
  return aus.flatMap((au, i) =>
    packetizeH264(au, mtu).map(({ payload, marker }) => ({
      marker,
      payload,
      payloadType: 96,
      ssrc: 7,
      sequenceNumber: seq++ & 0xffff,
      timestamp: (4294960000 + i * 3600) >>> 0,
    })),
  );
};

describe('H.264 over RTP', () => {
  // A real 2 s 320x240 25 fps x264 stream (one keyframe a second), as Annex B bytes.
  const clip = fixture('h264-320x240-2s.h264');
  const aus = accessUnits(splitAnnexB(clip));

  it('splits the captured stream into 50 access units, a keyframe each second', () => {
    expect(aus).toHaveLength(50);
    expect(aus.filter((au) => au.some((u) => h264NalType(u) === 5))).toHaveLength(2);
  });

  it('packetizes within the MTU and depacketizes back to the same access units', () => {
    const packets = toPackets(aus, 500);
    expect(Math.max(...packets.map((p) => p.payload.length))).toBeLessThanOrEqual(500);
    expect(packets.some((p) => (p.payload[0]! & 0x1f) === 28)).toBe(true); // FU-A used
    const depay = createH264Depacketizer();
    const frames = packets.flatMap((p) => depay.push(p));
    expect(frames).toHaveLength(50);
    frames.forEach((frame, i) => expect(Buffer.from(frame.data).equals(Buffer.from(toAvcc(aus[i]!)))).toBe(true));
    expect(frames.map((f) => f.keyframe).filter(Boolean)).toHaveLength(2);
    expect(frames[1]!.timestamp - frames[0]!.timestamp).toBe(3600);
    expect(depay.stats).toMatchObject({ frames: 50, lost: 0, errors: 0 });
  });

  it('keeps every frame whole when fragmented units are joined in a reused buffer, parameter sets and large units too', () => {
    const unit = (type: number, size: number, fill: number) =>
      Uint8Array.from({ length: size }, (_, i) => (i === 0 ? 0x60 | type : (fill + i) & 0xff));
    const sps = unit(7, 40, 1);
    const pps = unit(8, 30, 2);
    const pictures = [
      [sps, pps, unit(5, 20_000, 3)],
      [unit(1, 9_000, 4)],
      [unit(5, 20_000, 5)],
      // Together larger than the buffer units are first joined in: it is replaced within the frame.
      [unit(1, 40_000, 6), unit(1, 40_000, 7)],
      [unit(1, 7_000, 8)],
    ];
    // Everything in FU-A fragments of 24 bytes, the parameter sets included.
    const depay = createH264Depacketizer();
    const frames = toPackets(pictures, 24).flatMap((p) => depay.push(p));
    // The second keyframe came without its sets: those of the first are put before it, intact.
    const expected = pictures.map((units, i) => (i === 2 ? [sps, pps, ...units] : units));
    expect(frames.map((f, i) => Buffer.from(f.data).equals(Buffer.from(toAvcc(expected[i]!))))).toEqual([true, true, true, true, true]);
    expect(frames.map((f) => f.keyframe)).toEqual([true, false, true, false, false]);
  });

  it('drops only the access unit that lost a fragment, and counts it', () => {
    const packets = toPackets(aus, 300);
    const victim = packets.findIndex((p, i) => i > 10 && (p.payload[0]! & 0x1f) === 28 && (p.payload[1]! & 0xc0) === 0);
    const depay = createH264Depacketizer();
    const frames = packets.filter((_, i) => i !== victim).flatMap((p) => depay.push(p));
    expect(depay.stats.lost).toBe(1);
    const intact = frames.filter((f) => aus.some((au) => Buffer.from(toAvcc(au)).equals(Buffer.from(f.data))));
    expect(intact.length).toBeGreaterThanOrEqual(49);
  });

  it('reads what ffmpeg itself sends as RTP, putting SPS and PPS before the keyframe', () => {
    // 1 s of 320x240 x264 as ffmpeg sent it (packets of at most 1200 bytes).
    const depay = createH264Depacketizer();
    const frames = rtpCapture('h264-rtp-320x240-1s.rtp').flatMap((datagram) => depay.push(parseRtpPacket(datagram)));
    expect(frames.length).toBeGreaterThanOrEqual(23);
    const first = fromAvcc(frames[0]!.data).map(h264NalType);
    expect(frames[0]!.keyframe).toBe(true);
    expect(first.slice(0, 2)).toEqual([7, 8]);
    expect(depay.stats.errors).toBe(0);
  });
});
