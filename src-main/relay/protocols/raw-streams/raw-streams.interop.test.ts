import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishTestPattern, run, startRelay, waitForMedia, type RelayUnderTest } from '../../test/relay-test-kit';

// GET stream.ts, stream.flv, stream.aac and stream.y4m, read by ffprobe and decoded by ffmpeg as any player would.
let relay: RelayUnderTest;
let camera: ChildProcess;
beforeAll(async () => {
  relay = await startRelay('  cam:\n  silent:\n');
  camera = publishTestPattern(relay.rtspUrl('cam'), 60);
  await waitForMedia(relay, 'cam');
}, 30_000);
afterAll(async () => {
  camera.kill('SIGKILL');
  await relay.stop();
});

const probeHttp = async (url: string) => {
  const result = await run('ffprobe', [
    '-v',
    'error',
    '-analyzeduration',
    '2000000',
    '-show_entries',
    'stream=codec_name,codec_type,width,height,sample_rate',
    '-of',
    'json',
    url,
  ]);
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { streams: Record<string, unknown>[] }).streams;
};

describe('GET stream.ts, stream.flv, stream.aac and stream.y4m', () => {
  it('stream.ts is MPEG-TS with the H.264 video and AAC audio, decodable from its first bytes', async () => {
    const url = `${relay.api}/api/stream.ts?src=cam`;
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.headers.get('content-type')).toBe('video/mp2t');
    const streams = await probeHttp(url);
    expect(streams).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ codec_type: 'video', codec_name: 'h264', width: 320, height: 240 }),
        expect.objectContaining({ codec_type: 'audio', codec_name: 'aac' }),
      ]),
    );
    const decoded = await run('ffmpeg', ['-v', 'error', '-i', url, '-t', '2', '-map', '0:v', '-f', 'framemd5', '-']);
    expect(decoded.code, decoded.stderr).toBe(0);
    expect(decoded.stdout.split('\n').filter((l) => /^0,/.test(l)).length).toBeGreaterThanOrEqual(40);
  });

  it('stream.flv is FLV with H.264 and AAC that ffmpeg decodes at the full frame rate', async () => {
    const url = `${relay.api}/api/stream.flv?src=cam`;
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.headers.get('content-type')).toBe('video/x-flv');
    const streams = await probeHttp(url);
    expect(streams).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ codec_type: 'video', codec_name: 'h264', width: 320, height: 240 }),
        expect.objectContaining({ codec_type: 'audio', codec_name: 'aac' }),
      ]),
    );
    const decoded = await run('ffmpeg', ['-v', 'error', '-f', 'flv', '-i', url, '-t', '2', '-map', '0:v', '-f', 'framemd5', '-']);
    expect(decoded.code, decoded.stderr).toBe(0);
    expect(decoded.stdout.split('\n').filter((l) => /^0,/.test(l)).length).toBeGreaterThanOrEqual(40);
  });

  it('stream.aac is ADTS AAC that ffmpeg decodes', async () => {
    const url = `${relay.api}/api/stream.aac?src=cam`;
    const streams = await probeHttp(url);
    expect(streams).toEqual([expect.objectContaining({ codec_type: 'audio', codec_name: 'aac', sample_rate: '44100' })]);
    const decoded = await run('ffmpeg', ['-v', 'error', '-f', 'aac', '-i', url, '-t', '1', '-f', 's16le', '-']);
    expect(decoded.code, decoded.stderr).toBe(0);
  });

  it('stream.y4m is the video decoded to raw YUV 4:2:0 frames', async () => {
    const url = `${relay.api}/api/stream.y4m?src=cam`;
    const streams = await probeHttp(url);
    expect(streams).toEqual([expect.objectContaining({ codec_type: 'video', codec_name: 'rawvideo', width: 320, height: 240 })]);
    // The first bytes are the YUV4MPEG2 header with the picture size and a frame marker follows.
    const response = await fetch(url);
    const reader = response.body!.getReader();
    let head = '';
    while (!head.includes('FRAME')) head += Buffer.from((await reader.read()).value!).toString('latin1');
    await reader.cancel();
    expect(head).toMatch(/^YUV4MPEG2 W320 H240 F25:1 /);
  });

  it('answers what go2rtc answers before any byte: 400 without src, 404 for an unknown stream, 503 with no source', async () => {
    expect((await fetch(`${relay.api}/api/stream.ts`)).status).toBe(400);
    expect((await fetch(`${relay.api}/api/stream.aac?src=nope`)).status).toBe(404);
    expect((await fetch(`${relay.api}/api/stream.ts?src=silent`)).status).toBe(503);
  });
});
