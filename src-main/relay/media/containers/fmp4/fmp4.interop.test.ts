import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import type { MediaFrame } from '@main/relay/core/media';
import { decodePcm } from '../../codecs/flac/pcm-input';
import { decodeOrderProblems, readVideo } from '../mpegts-mux/test-media';
import { alawFiles, bFramesGops, bFramesLearned, bFramesLive, h264AacLive, h264Gops, h265File, opusFile } from './test-files';

// The same files as fmp4.test.ts (test-files.ts), which checks their boxes and times: here
// ffprobe and ffmpeg read them.
const dir = mkdtempSync(join(tmpdir(), 'fmp4-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tool(command: 'ffmpeg' | 'ffprobe', args: string[]): Buffer {
  const result = spawnSync(command, ['-hide_banner', '-v', 'error', ...args], { maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0 || result.stderr.length > 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr.toString()}`);
  return result.stdout;
}

interface Probed {
  streams: Array<{
    codec_name: string;
    codec_type: string;
    width?: number;
    height?: number;
    nb_read_frames?: string;
    sample_rate?: string;
  }>;
  format: { duration: string };
}

function probeFile(bytes: Uint8Array, name: string): Probed {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  const out = tool('ffprobe', [
    '-count_frames',
    '-show_entries',
    'stream=codec_name,codec_type,width,height,nb_read_frames,sample_rate:format=duration',
    '-of',
    'json',
    file,
  ]);
  tool('ffmpeg', ['-err_detect', 'crccheck', '-i', file, '-f', 'null', '-']); // decodes without a single error
  return JSON.parse(out.toString()) as Probed;
}

describe('fragmented MP4 muxer, checked with ffprobe and ffmpeg', () => {
  it('H.264 (parameter sets from the first keyframe) with AAC: codecs, size, every frame, the length', () => {
    const probed = probeFile(h264AacLive(), 'h264-aac.mp4');
    expect(probed.streams.map((s) => [s.codec_type, s.codec_name])).toEqual([
      ['video', 'h264'],
      ['audio', 'aac'],
    ]);
    expect(probed.streams[0]).toMatchObject({ width: 320, height: 240, nb_read_frames: '50' });
    expect(Number(probed.format.duration)).toBeCloseTo(2, 0);
  });

  it('takes H.264 parameter sets from the SDP, a GOP a fragment: every frame decodes', () => {
    expect(probeFile(h264Gops().file, 'h264-gops.mp4').streams[0]).toMatchObject({ codec_name: 'h264', nb_read_frames: '50' });
  });

  it('H.265 as hvc1 with VPS, SPS and PPS', () => {
    expect(probeFile(h265File().file, 'h265.mp4').streams[0]).toMatchObject({
      codec_name: 'hevc',
      width: 320,
      height: 240,
      nb_read_frames: '50',
    });
  });

  it('G.711 as alaw, and as FLAC (dfLa) that decodes to the same PCM', () => {
    const { alaw, asAlaw, asFlac } = alawFiles();
    expect(probeFile(asAlaw, 'alaw.mp4').streams[0]).toMatchObject({ codec_name: 'pcm_alaw', sample_rate: '8000' });
    expect(probeFile(asFlac, 'flac.mp4').streams[0]).toMatchObject({ codec_name: 'flac', sample_rate: '8000' });
    const decoded = tool('ffmpeg', ['-i', join(dir, 'flac.mp4'), '-f', 's16le', '-']);
    expect(decoded.equals(Buffer.from(Int16Array.from(decodePcm('PCMA', alaw)[0]!).buffer))).toBe(true);
  });

  it('Opus with dOps', () => {
    expect(probeFile(opusFile().file, 'opus.mp4').streams[0]).toMatchObject({ codec_name: 'opus', sample_rate: '48000' });
  });
});

describe('B-frames (x264 and x265 -bf 2, as a pushed MPEG-TS brings them), decoded by ffmpeg', () => {
  /** ffmpeg decodes every frame without an error and gives them out in presentation order, 1/25 s apart. */
  async function checkDecoding(file: Uint8Array, name: string, frames: MediaFrame[]): Promise<void> {
    const path = join(dir, name);
    writeFileSync(path, file);
    const video = await readVideo(path);
    expect(video.errors).toBe('');
    expect(video.decoded).toBe(frames.length);
    expect(decodeOrderProblems(video, 3600)).toEqual([]);
  }

  it.each(['H264', 'H265'] as const)(
    '%s live: a fragment per frame as it comes, frames shown in order',
    async (codec) => {
      const { frames, file } = bFramesLive(codec);
      await checkDecoding(file, `bframes-live-${codec}.mp4`, frames);
    },
    30_000,
  );

  it('a GOP per fragment (HLS segments)', async () => {
    const { frames, file } = bFramesGops();
    await checkDecoding(file, 'bframes-gops.mp4', frames);
  }, 30_000);

  it('learns B-frames whose SPS is not known when the track starts: every frame decodes', async () => {
    const { frames: bare, file } = bFramesLearned();
    const path = join(dir, 'bframes-learned.mp4');
    writeFileSync(path, file);
    const video = await readVideo(path);
    expect(video.decoded).toBe(bare.length);
    // No decoding error. The first B-frames, shown a tick after the frame decoded before them
    // (the limit of learning late), make ffmpeg's output side see two frames at one instant.
    const complaints = video.errors.split('\n').filter(Boolean);
    expect(complaints.length).toBeLessThanOrEqual(2);
    for (const line of complaints) expect(line).toMatch(/non monotonically increasing dts to muxer/);
  }, 30_000);
});
