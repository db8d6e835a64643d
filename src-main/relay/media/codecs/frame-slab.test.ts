import { describe, expect, it } from 'vitest';
import type { RtpPacket } from '@main/relay/core/rtp-packet';
import { createFrameSlab } from './frame-slab';
import { fromAvcc } from './h264/nal';
import { createH264Depacketizer, packetizeH264 } from './h264/rtp-h264';

/** A NAL unit of `size` bytes: the header, then bytes that say where they are. */
const unit = (header: number, size: number, seed: number) => {
  const bytes = new Uint8Array(size);
  bytes[0] = header;
  for (let i = 1; i < size; i++) bytes[i] = (i * 31 + seed) & 0xff;
  return bytes;
};

/** The units as one hex string each (quick to compare, at hundreds of kilobytes). */
const hex = (units: Uint8Array[]) => units.map((u) => Buffer.from(u.buffer, u.byteOffset, u.length).toString('hex'));

function write(slab: ReturnType<typeof createFrameSlab>, units: Uint8Array[]): Uint8Array {
  for (const u of units) {
    const at = slab.beginUnit();
    slab.append(u);
    slab.endUnit(at);
  }
  return slab.take();
}

describe('frame slab', () => {
  it('writes frames one after another into one buffer, each an AVCC view', () => {
    const slab = createFrameSlab();
    const a = write(slab, [unit(0x67, 10, 1), unit(0x65, 1000, 2)]);
    const b = write(slab, [unit(0x41, 500, 3)]);
    expect(a.buffer).toBe(b.buffer);
    expect(b.byteOffset).toBe(a.byteOffset + a.length);
    expect(fromAvcc(a)).toEqual([unit(0x67, 10, 1), unit(0x65, 1000, 2)]);
    expect(fromAvcc(b)).toEqual([unit(0x41, 500, 3)]);
  });

  it('moves a frame that outgrows the slab to a larger one, leaving the frames before it as they were', () => {
    const slab = createFrameSlab();
    const before = Array.from({ length: 3 }, (_, i) => write(slab, [unit(0x41, 60_000, i)]));
    // 700 KB in one frame: more than the slab has left, and more than a fresh slab holds.
    const big = [unit(0x65, 300_000, 7), unit(0x65, 400_000, 8)];
    const frame = write(slab, big);
    expect(frame.buffer).not.toBe(before[0]!.buffer);
    expect(hex(fromAvcc(frame))).toEqual(hex(big));
    before.forEach((f, i) => expect(hex(fromAvcc(f))).toEqual(hex([unit(0x41, 60_000, i)])));
    const after = write(slab, [unit(0x41, 20, 9)]);
    expect(fromAvcc(after)).toEqual([unit(0x41, 20, 9)]);
  });

  it('forgets a unit cut short (truncate) and a frame given up (discard)', () => {
    const slab = createFrameSlab();
    const keep = slab.beginUnit();
    slab.append(unit(0x41, 100, 1));
    slab.endUnit(keep);
    const lost = slab.beginUnit();
    slab.append(unit(0x41, 300_000, 2)); // moves the frame to a larger slab
    slab.truncate(lost);
    expect(fromAvcc(slab.take())).toEqual([unit(0x41, 100, 1)]);
    slab.beginUnit();
    slab.append(unit(0x41, 50, 3));
    slab.discard();
    expect(slab.take()).toHaveLength(0);
  });
});

describe('H.264 frames built in the slab', () => {
  const packets = (aus: Uint8Array[][]): RtpPacket[] => {
    let seq = 0;
    return aus.flatMap((au, i) =>
      packetizeH264(au, 1200).map(({ payload, marker }) => ({
        marker,
        payload,
        payloadType: 96,
        ssrc: 1,
        sequenceNumber: seq++ & 0xffff,
        timestamp: i * 3600,
      })),
    );
  };

  it('gives each picture its own bytes though they share buffers, across a picture larger than a slab', () => {
    const aus = [
      [unit(0x67, 12, 1), unit(0x68, 4, 2), unit(0x65, 90_000, 3)],
      [unit(0x41, 30_000, 4)],
      [unit(0x67, 12, 1), unit(0x68, 4, 2), unit(0x65, 600_000, 5)],
      [unit(0x41, 8_000, 6), unit(0x41, 9_000, 7)],
    ];
    const depay = createH264Depacketizer();
    const frames = packets(aus).flatMap((p) => depay.push(p));
    expect(frames.map((f) => hex(fromAvcc(f.data)))).toEqual(aus.map(hex));
    expect(frames[0]!.data.buffer).toBe(frames[1]!.data.buffer);
  });

  it('puts the known parameter sets before a keyframe that came without them', () => {
    const depay = createH264Depacketizer([unit(0x67, 12, 1), unit(0x68, 4, 2)]);
    const [frame] = packets([[unit(0x65, 5_000, 3)]]).flatMap((p) => depay.push(p));
    expect(fromAvcc(frame!.data)).toEqual([unit(0x67, 12, 1), unit(0x68, 4, 2), unit(0x65, 5_000, 3)]);
    expect(frame!.keyframe).toBe(true);
  });
});
