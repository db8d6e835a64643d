import { describe, expect, it } from 'vitest';
import { createFlvDemuxer } from '../flv/flv-demuxer';
import { createFlvMuxer } from './flv-muxer';

const SPS = Uint8Array.of(0x67, 0x42, 0xc0, 0x1e, 0xd9, 0x00, 0xa0, 0x47, 0xfe, 0xc8);
const PPS = Uint8Array.of(0x68, 0xce, 0x3c, 0x80);
const avcc = (...units: Uint8Array[]) =>
  Uint8Array.from(units.flatMap((u) => [...new Uint8Array(new Uint32Array([u.length]).buffer).reverse(), ...u]));
const h264 = { name: 'H264', clockRate: 90000, payloadType: 96, fmtp: 'packetization-mode=1' };
const aac = {
  name: 'MPEG4-GENERIC',
  clockRate: 44100,
  payloadType: 97,
  channels: 1,
  fmtp: 'streamtype=5;profile-level-id=1;mode=AAC-hbr;config=1208;sizelength=13;indexlength=3;indexdeltalength=3',
};

describe('FLV muxer', () => {
  it('writes what the FLV demuxer (the ingest side) reads back: sequence headers, frames, times', () => {
    const muxer = createFlvMuxer([h264, aac]);
    const frames: { codec: string; timestamp: number; keyframe: boolean }[] = [];
    let trackCodecs: string[] = [];
    const demuxer = createFlvDemuxer({
      tracks: (tracks) => (trackCodecs = tracks.map((t) => t.codec.name)),
      frame: (_index, frame) => frames.push({ codec: frame.codec, timestamp: frame.timestamp, keyframe: frame.keyframe }),
    });
    demuxer.push(muxer.header());
    // Audio before the first keyframe waits; then a keyframe with its parameter sets, a P frame, audio.
    expect(muxer.write(1, { codec: 'MPEG4-GENERIC', timestamp: 0, keyframe: true, data: Uint8Array.of(1, 2, 3) })).toBeUndefined();
    expect(muxer.write(0, { codec: 'H264', timestamp: 1000, keyframe: false, data: avcc(Uint8Array.of(0x41, 9)) })).toBeUndefined();
    demuxer.push(muxer.write(0, { codec: 'H264', timestamp: 9000, keyframe: true, data: avcc(SPS, PPS, Uint8Array.of(0x65, 1, 2)) })!);
    demuxer.push(muxer.write(0, { codec: 'H264', timestamp: 9000 + 3600, keyframe: false, data: avcc(Uint8Array.of(0x41, 3)) })!);
    demuxer.push(muxer.write(1, { codec: 'MPEG4-GENERIC', timestamp: 1024, keyframe: true, data: Uint8Array.of(4, 5, 6) })!);
    demuxer.end();
    expect(trackCodecs.sort()).toEqual(['H264', 'MPEG4-GENERIC']);
    expect(frames.map((f) => f.codec)).toEqual(['H264', 'H264', 'MPEG4-GENERIC']);
    // 3600 ticks at 90 kHz: the P frame is 40 ms after the keyframe.
    expect(frames[1]!.timestamp - frames[0]!.timestamp).toBe(40 * 90);
    expect(frames[0]!.keyframe).toBe(true);
    expect(frames[1]!.keyframe).toBe(false);
  });

  it('refuses codecs FLV has no standard place for', () => {
    expect(() => createFlvMuxer([{ name: 'H265', clockRate: 90000, payloadType: 96 }])).toThrow(
      'FLV output carries H264 and AAC (MPEG4-GENERIC), not H265',
    );
    expect(() => createFlvMuxer([{ ...aac, fmtp: 'mode=AAC-hbr' }])).toThrow(/AudioSpecificConfig/);
  });
});
