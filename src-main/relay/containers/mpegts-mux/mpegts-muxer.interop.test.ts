import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaFrame } from '../../core/media';
import { aacCodec, h264Codec, h265Codec } from '../../frames/codec-description';
import { fromAvcc, toAvcc } from '../../codecs/h264/nal';
import { createMpegTsMuxer } from './mpegts-muxer';
import { decodeOrderProblems, encodeAac, encodeVideo, encodeWithBFrames, isKeyframe, readVideo, timed } from './test-media';
import { TS_PACKET_SIZE } from './ts-packetizer';

const run = promisify(execFile);
const NEAR_WRAP = 0xffff0000; // the 32-bit RTP clock wraps after 18 video frames

let dir: string;
let h264: Uint8Array[];
let aac: { config: Uint8Array; frames: Uint8Array[] };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mpegts-mux-'));
  [h264, aac] = await Promise.all([encodeVideo('H264', 50), encodeAac(2)]);
}, 30_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Frames of all tracks in the order a live source would deliver them (by time). */
function interleave(...tracks: Array<{ index: number; frames: MediaFrame[]; seconds: (i: number) => number }>) {
  return tracks
    .flatMap((t) => t.frames.map((frame, i) => ({ index: t.index, frame, at: t.seconds(i) })))
    .sort((a, b) => a.at - b.at);
}

async function probeFile(bytes: Uint8Array, name: string) {
  const file = join(dir, name);
  await writeFile(file, bytes);
  const probe = await run('ffprobe', ['-v', 'error', '-count_frames', '-show_entries', 'stream=codec_name,codec_type,width,height,nb_read_frames,sample_rate', '-of', 'json', file]);
  const decode = await run('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-']);
  const packets = await run('ffprobe', ['-v', 'error', '-select_streams', 'v', '-show_entries', 'packet=pts,flags', '-of', 'csv=p=0', file]);
  return {
    streams: (JSON.parse(probe.stdout) as { streams: Array<Record<string, string | number>> }).streams,
    decodeErrors: decode.stderr,
    videoPackets: packets.stdout.trim().split('\n').filter(Boolean).map((l) => ({ pts: Number(l.split(',')[0]), key: l.split(',')[1]!.startsWith('K') })),
  };
}

function h264Track() {
  const units = fromAvcc(h264[0]!);
  return h264Codec(units.find((u) => (u[0]! & 0x1f) === 7)!, units.find((u) => (u[0]! & 0x1f) === 8)!);
}

describe('MPEG-TS muxer', () => {
  it('writes H.264 + AAC that ffmpeg decodes without an error: every frame, codecs, size, 90 kHz PTS across the RTP wrap', async () => {
    const muxer = createMpegTsMuxer([h264Track(), aacCodec(aac.config)]);
    const order = interleave(
      { index: 0, frames: timed('H264', h264, 3600, NEAR_WRAP, (d) => isKeyframe('H264', d)), seconds: (i) => i / 25 },
      { index: 1, frames: timed('MPEG4-GENERIC', aac.frames, 1024, 123456, () => true), seconds: (i) => (i * 1024) / 44100 },
    );
    const parts = [muxer.header(), ...order.map((o) => muxer.write(o.index, o.frame)!.data)];
    const ts = Buffer.concat(parts);
    expect(ts.length % TS_PACKET_SIZE).toBe(0);

    const { streams, decodeErrors, videoPackets } = await probeFile(ts, 'h264-aac.ts');
    expect(decodeErrors).toBe('');
    expect(streams).toEqual([
      expect.objectContaining({ codec_name: 'h264', codec_type: 'video', width: 320, height: 240, nb_read_frames: '50' }),
      expect.objectContaining({ codec_name: 'aac', codec_type: 'audio', sample_rate: '44100', nb_read_frames: String(aac.frames.length) }),
    ]);
    const steps = videoPackets.slice(1).map((p, i) => p.pts - videoPackets[i]!.pts);
    expect(new Set(steps)).toEqual(new Set([3600]));
    expect(videoPackets.filter((p) => p.key).length).toBe(2);
  }, 30_000);

  it('writes H.265 with the SDP parameter sets before each keyframe that comes without them', async () => {
    const h265 = await encodeVideo('H265', 30);
    const keyframes = h265.map((d) => isKeyframe('H265', d));
    // As some cameras send them: VPS, SPS and PPS only in the SDP, never in band.
    const [vps, sps, pps] = fromAvcc(h265[0]!);
    const stripped = h265.map((d) => toAvcc(fromAvcc(d).filter((u) => ((u[0]! >> 1) & 0x3f) < 32 || ((u[0]! >> 1) & 0x3f) > 34)));
    const muxer = createMpegTsMuxer([h265Codec(vps!, sps!, pps!)]);
    const frames = timed('H265', stripped, 3600, 0, () => false).map((f, i) => ({ ...f, keyframe: keyframes[i]! }));
    const written = frames.map((f) => muxer.write(0, f)!.data);
    const { streams, decodeErrors, videoPackets } = await probeFile(Buffer.concat([muxer.header(), ...written]), 'h265.ts');
    expect(decodeErrors).toBe('');
    expect(streams).toEqual([expect.objectContaining({ codec_name: 'hevc', width: 320, height: 240, nb_read_frames: '30' })]);
    expect(videoPackets.filter((p) => p.key).length).toBe(2);
    // Cut at the second keyframe (as an HLS segment is): it decodes alone, parameter sets included.
    expect(frames[25]!.keyframe).toBe(true);
    const cut = await probeFile(Buffer.concat([muxer.header(), ...written.slice(25)]), 'h265-cut.ts');
    expect(cut.decodeErrors).toBe('');
    expect(cut.streams).toEqual([expect.objectContaining({ codec_name: 'hevc', nb_read_frames: '5' })]);
  }, 30_000);

  it('writes B-frames (x264 and x265, -bf 2) with PTS and DTS: DTS rising, frames shown in order, not one decoding error', async () => {
    for (const codec of ['H264', 'H265'] as const) {
      const source = await encodeWithBFrames(codec, 2, NEAR_WRAP);
      const muxer = createMpegTsMuxer([source.codec]);
      const written = source.frames.map((f) => muxer.write(0, f)!);
      // Presentation times as they came (B-frames go back), decode times in PES headers.
      expect(written.map((w) => w.time)).toEqual(source.frames.map((f) => written[0]!.time + ((f.timestamp - source.frames[0]!.timestamp) | 0)));
      const file = join(dir, `bframes-${codec}.ts`);
      await writeFile(file, Buffer.concat([muxer.header(), ...written.map((w) => w.data)]));
      const video = await readVideo(file);
      expect(video.errors).toBe('');
      expect(video.decoded).toBe(source.frames.length);
      expect(source.frames.length).toBeGreaterThanOrEqual(49);
      expect(decodeOrderProblems(video, 3600)).toEqual([]);
    }
  }, 60_000);

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
    expect(() => createMpegTsMuxer([{ name: 'OPUS', clockRate: 48000, payloadType: 111 }])).toThrow('MPEG-TS output carries H264, H265, MPEG4-GENERIC (AAC), not OPUS');
    expect(() => createMpegTsMuxer([{ name: 'MPEG4-GENERIC', clockRate: 44100, payloadType: 97, fmtp: 'mode=AAC-hbr' }])).toThrow(/AudioSpecificConfig \(fmtp config=\)/);
  });

  it('writes audio alone, each frame behind an ADTS header', async () => {
    const muxer = createMpegTsMuxer([aacCodec(aac.config)]);
    const frames = timed('MPEG4-GENERIC', aac.frames, 1024, NEAR_WRAP, () => true);
    const ts = Buffer.concat([muxer.header(), ...frames.map((f) => muxer.write(0, f)!.data)]);
    const { streams, decodeErrors } = await probeFile(ts, 'aac.ts');
    expect(decodeErrors).toBe('');
    expect(streams).toEqual([expect.objectContaining({ codec_name: 'aac', nb_read_frames: String(aac.frames.length) })]);
  }, 30_000);
});
