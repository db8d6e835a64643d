import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeOrderProblems, readVideo } from './test-media';
import { aac, aacAlone, bFrameStream, h264AacStream, h265WithoutParameterSets } from './test-files';

const run = promisify(execFile);

// The same streams as mpegts-muxer.test.ts (test-files.ts): here ffprobe and ffmpeg read them.
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mpegts-mux-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function probeFile(bytes: Uint8Array, name: string) {
  const file = join(dir, name);
  await writeFile(file, bytes);
  const probe = await run('ffprobe', [
    '-v',
    'error',
    '-count_frames',
    '-show_entries',
    'stream=codec_name,codec_type,width,height,nb_read_frames,sample_rate',
    '-of',
    'json',
    file,
  ]);
  const decode = await run('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-']);
  const packets = await run('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v',
    '-show_entries',
    'packet=pts,flags',
    '-of',
    'csv=p=0',
    file,
  ]);
  return {
    streams: (JSON.parse(probe.stdout) as { streams: Array<Record<string, string | number>> }).streams,
    decodeErrors: decode.stderr,
    videoPackets: packets.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => ({ pts: Number(l.split(',')[0]), key: l.split(',')[1]!.startsWith('K') })),
  };
}

describe('MPEG-TS muxer, read by ffprobe and ffmpeg', () => {
  it('writes H.264 + AAC that ffmpeg decodes without an error: every frame, codecs, size, 90 kHz PTS across the RTP wrap', async () => {
    const { streams, decodeErrors, videoPackets } = await probeFile(h264AacStream(), 'h264-aac.ts');
    expect(decodeErrors).toBe('');
    expect(streams).toEqual([
      expect.objectContaining({ codec_name: 'h264', codec_type: 'video', width: 320, height: 240, nb_read_frames: '50' }),
      expect.objectContaining({
        codec_name: 'aac',
        codec_type: 'audio',
        sample_rate: '44100',
        nb_read_frames: String(aac().frames.length),
      }),
    ]);
    const steps = videoPackets.slice(1).map((p, i) => p.pts - videoPackets[i]!.pts);
    expect(new Set(steps)).toEqual(new Set([3600]));
    expect(videoPackets.filter((p) => p.key).length).toBe(2);
  }, 30_000);

  it('writes H.265 with the SDP parameter sets before each keyframe that comes without them', async () => {
    const { header, written } = h265WithoutParameterSets();
    const { streams, decodeErrors, videoPackets } = await probeFile(Buffer.concat([header, ...written]), 'h265.ts');
    expect(decodeErrors).toBe('');
    expect(streams).toEqual([expect.objectContaining({ codec_name: 'hevc', width: 320, height: 240, nb_read_frames: '30' })]);
    expect(videoPackets.filter((p) => p.key).length).toBe(2);
    // Cut at the second keyframe (frame 25, as an HLS segment is): it decodes alone, parameter sets included.
    const cut = await probeFile(Buffer.concat([header, ...written.slice(25)]), 'h265-cut.ts');
    expect(cut.decodeErrors).toBe('');
    expect(cut.streams).toEqual([expect.objectContaining({ codec_name: 'hevc', nb_read_frames: '5' })]);
  }, 30_000);

  it('writes B-frames (x264 and x265, -bf 2) with PTS and DTS: DTS rising, frames shown in order, not one decoding error', async () => {
    for (const codec of ['H264', 'H265'] as const) {
      const { frames, file } = bFrameStream(codec);
      const path = join(dir, `bframes-${codec}.ts`);
      await writeFile(path, file);
      const video = await readVideo(path);
      expect(video.errors).toBe('');
      expect(video.decoded).toBe(frames.length);
      expect(decodeOrderProblems(video, 3600)).toEqual([]);
    }
  }, 60_000);

  it('writes audio alone, each frame behind an ADTS header', async () => {
    const { frames, ts } = aacAlone();
    const { streams, decodeErrors } = await probeFile(ts, 'aac.ts');
    expect(decodeErrors).toBe('');
    expect(streams).toEqual([expect.objectContaining({ codec_name: 'aac', nb_read_frames: String(frames) })]);
  }, 30_000);
});
