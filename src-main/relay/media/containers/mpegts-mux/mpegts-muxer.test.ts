import { describe, expect, it } from 'vitest';
import { aacCodec } from '../../frames/codec-description';
import { createMpegTsMuxer } from './mpegts-muxer';
import { aac as aacSource, bFrameStream, h264 as h264Source, h264AacStream, h264Track, h265WithoutParameterSets } from './test-files';
import { TS_PACKET_SIZE } from './ts-packetizer';

// Recorded media (test-files.ts); mpegts-muxer.interop.test.ts has ffprobe and ffmpeg decode the
// same streams.
const h264 = h264Source();
const aac = aacSource();

describe('MPEG-TS muxer', () => {
  it('writes H.264 + AAC across the RTP wrap in whole TS packets', () => {
    expect(h264AacStream().length % TS_PACKET_SIZE).toBe(0);
  });

  it('writes H.265 whose parameter sets come only in the SDP: a keyframe at frame 25 to cut at', () => {
    expect(h265WithoutParameterSets().frames[25]!.keyframe).toBe(true);
  });

  it('writes B-frames (x264 and x265, -bf 2) with the presentation times as they came', () => {
    for (const codec of ['H264', 'H265'] as const) {
      const { frames, written } = bFrameStream(codec);
      // Presentation times as they came (B-frames go back), decode times in PES headers.
      expect(written.map((w) => w.time)).toEqual(frames.map((f) => written[0]!.time + ((f.timestamp - frames[0]!.timestamp) | 0)));
      expect(frames.length).toBeGreaterThanOrEqual(49);
    }
  });

  it('marks keyframes and carries the PCR on the video PID, counts continuity per PID, stuffs the last packet', () => {
    const muxer = createMpegTsMuxer([h264Track(), aacCodec(aac.config)]);
    const header = muxer.header();
    const key = muxer.write(0, { codec: 'H264', timestamp: 1000, keyframe: true, data: h264[0]! })!;
    const delta = muxer.write(0, { codec: 'H264', timestamp: 4600, keyframe: false, data: h264[1]! })!;
    const audio = muxer.write(1, { codec: 'MPEG4-GENERIC', timestamp: 0, keyframe: true, data: aac.frames[0]! })!;
    expect([key.time, delta.time, audio.time]).toEqual([0, 3600, 3600]); // audio joins at the newest video time

    const packets = (bytes: Uint8Array) => Array.from({ length: bytes.length / 188 }, (_, i) => bytes.subarray(i * 188, (i + 1) * 188));
    const all = [header, key.data, delta.data, audio.data].flatMap(packets);
    expect(all.every((p) => p[0] === 0x47)).toBe(true);
    const pid = (p: Uint8Array) => ((p[1]! & 0x1f) << 8) | p[2]!;
    expect([...new Set(all.map(pid))]).toEqual([0x0000, 0x1000, 0x100, 0x101]);
    const videoCounters = all.filter((p) => pid(p) === 0x100).map((p) => p[3]! & 0x0f);
    expect(videoCounters).toEqual(videoCounters.map((_, i) => i % 16));

    const [firstKey] = packets(key.data);
    expect(firstKey![1]! & 0x40).toBe(0x40); // payload_unit_start
    expect(firstKey![3]! & 0x20).toBe(0x20); // adaptation field present
    expect(firstKey![5]! & 0x50).toBe(0x50); // random_access_indicator and PCR flag
    const [firstDelta] = packets(delta.data);
    expect(firstDelta![5]! & 0x50).toBe(0x10); // PCR, not random access
    const [firstAudio] = packets(audio.data);
    expect(firstAudio![5]! & 0x50).toBe(0x40); // no PCR off the PCR PID
  });

  it('waits for a keyframe before writing anything, and refuses codecs MPEG-TS cannot carry, saying why', () => {
    const muxer = createMpegTsMuxer([h264Track(), aacCodec(aac.config)]);
    expect(muxer.write(1, { codec: 'MPEG4-GENERIC', timestamp: 0, keyframe: true, data: aac.frames[0]! })).toBeUndefined();
    expect(muxer.write(0, { codec: 'H264', timestamp: 0, keyframe: false, data: h264[1]! })).toBeUndefined();
    expect(muxer.write(0, { codec: 'H264', timestamp: 3600, keyframe: true, data: h264[0]! })?.time).toBe(0);
    expect(muxer.stats.skipped).toBe(2);
    expect(() => createMpegTsMuxer([{ name: 'OPUS', clockRate: 48000, payloadType: 111 }])).toThrow(
      'MPEG-TS output carries H264, H265, MPEG4-GENERIC (AAC), not OPUS',
    );
    expect(() => createMpegTsMuxer([{ name: 'MPEG4-GENERIC', clockRate: 44100, payloadType: 97, fmtp: 'mode=AAC-hbr' }])).toThrow(
      /AudioSpecificConfig \(fmtp config=\)/,
    );
  });
});
