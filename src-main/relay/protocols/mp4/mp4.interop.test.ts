import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishTestPattern, run, startRelay, waitFor, waitForMedia, type RelayUnderTest } from '../../test/relay-test-kit';
import { readBoxes, readFragments } from '../../media/containers/fmp4/box-reader';
import { SYNC_SAMPLE } from '../../media/containers/fmp4/fragment';

const dir = mkdtempSync(join(tmpdir(), 'mp4-route-test-'));

/** ffmpeg publishing `lavfi` input encoded with `codec` args over RTSP/TCP, for `seconds`. */
function publish(url: string, input: string[], codec: string[]): ChildProcess {
  return spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-re', ...input, ...codec, '-f', 'rtsp', '-rtsp_transport', 'tcp', url], {
    stdio: 'ignore',
  });
}

/** ffmpeg's output as bytes (the kit's `run` gives text), and what it said on stderr. */
function ffmpegBytes(args: string[]): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-v', 'error', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr }));
  });
}

interface Probed {
  streams: Array<{ codec_name: string; codec_type: string; width?: number; height?: number; nb_read_frames?: string }>;
}

async function probeBytes(bytes: Uint8Array, name: string): Promise<Probed> {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  const result = await run('ffprobe', [
    '-v',
    'error',
    '-count_frames',
    '-show_entries',
    'stream=codec_name,codec_type,width,height,nb_read_frames',
    '-of',
    'json',
    file,
  ]);
  if (result.code !== 0) throw new Error(`ffprobe ${name}: ${result.stderr}`);
  return JSON.parse(result.stdout) as Probed;
}

describe('MP4 outputs: /api/stream.mp4 and /api/frame.mp4', () => {
  let relay: RelayUnderTest;
  const publishers: ChildProcess[] = [];
  const get = (query: string, init?: RequestInit) => fetch(`${relay.api}/api/stream.mp4?${query}`, init);
  const consumersOf = async (name: string) =>
    ((await (await fetch(`${relay.api}/api/streams?src=${name}`)).json()) as { consumers: unknown[] }).consumers.length;

  beforeAll(async () => {
    relay = await startRelay('  cam:\n  hevc:\n  alaw:\n');
    const pattern = ['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25'];
    publishers.push(
      publishTestPattern(relay.rtspUrl('cam'), 600),
      publish(relay.rtspUrl('hevc'), pattern, [
        '-c:v',
        'libx265',
        '-preset',
        'ultrafast',
        '-tune',
        'zerolatency',
        '-x265-params',
        'log-level=error:keyint=25',
        '-pix_fmt',
        'yuv420p',
      ]),
      publish(
        relay.rtspUrl('alaw'),
        ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=8000'],
        ['-c:a', 'pcm_alaw', '-ar', '8000', '-ac', '1'],
      ),
    );
    await Promise.all(['cam', 'hevc', 'alaw'].map((name) => waitForMedia(relay, name, 20_000)));
  }, 60_000);

  afterAll(async () => {
    for (const p of publishers) p.kill('SIGKILL');
    await relay?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('streams H.264 and AAC for `duration` seconds of media, then ends the body', async () => {
    const response = await get('src=cam&duration=3');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^video\/mp4; codecs="avc1\.[0-9A-F]{6},mp4a\.40\.2"$/);
    expect(response.headers.get('content-disposition')).toBeNull();
    const body = new Uint8Array(await response.arrayBuffer());
    expect(
      readBoxes(body)
        .slice(0, 3)
        .map((b) => b.type),
    ).toEqual(['ftyp', 'moov', 'moof']);
    const probed = await probeBytes(body, 'cam.mp4');
    expect(probed.streams.map((s) => s.codec_name)).toEqual(['h264', 'aac']);
    expect(probed.streams[0]).toMatchObject({ width: 320, height: 240 });
    const frames = Number(probed.streams[0]!.nb_read_frames);
    expect(frames).toBeGreaterThanOrEqual(68);
    expect(frames).toBeLessThanOrEqual(82);
  }, 30_000);

  it('offers a download with filename=, and filters medias with video / audio', async () => {
    const download = await get('src=cam&duration=1&filename=door%20clip.mp4');
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="door clip.mp4"');
    await download.arrayBuffer();

    const video = await get('src=cam&duration=1&video');
    expect(video.headers.get('content-type')).toMatch(/codecs="avc1\.[0-9A-F]{6}"$/);
    expect((await probeBytes(new Uint8Array(await video.arrayBuffer()), 'video.mp4')).streams.map((s) => s.codec_type)).toEqual(['video']);

    const audio = await get('src=cam&duration=1&audio');
    expect(audio.headers.get('content-type')).toBe('video/mp4; codecs="mp4a.40.2"');
    expect((await probeBytes(new Uint8Array(await audio.arrayBuffer()), 'audio.mp4')).streams.map((s) => s.codec_name)).toEqual(['aac']);
  }, 30_000);

  it('starts at once with the cached keyframe, and lets go of the stream when the client leaves', async () => {
    const started = Date.now();
    const abort = new AbortController();
    const response = await get('src=cam', { signal: abort.signal });
    const reader = response.body!.getReader();
    let received: Uint8Array = new Uint8Array();
    while (readFragments(safePrefix(received)).length === 0) {
      const { value, done } = await reader.read();
      if (done) break;
      received = Buffer.concat([received, value]);
    }
    // The cached keyframe goes out at once (a generous bound: the machine may be busy).
    expect(Date.now() - started).toBeLessThan(1500);
    const first = readFragments(safePrefix(received))[0]!;
    expect(first.tracks[0]).toMatchObject({ trackId: 1, baseTime: 0 });
    expect(first.tracks[0]!.samples[0]!.flags).toBe(SYNC_SAMPLE);
    expect(await consumersOf('cam')).toBe(1);
    expect(await (await fetch(`${relay.api}/api/stack`)).text()).toContain('mp4 cam');

    abort.abort();
    await waitFor(async () => ((await consumersOf('cam')) === 0 ? true : undefined));
    expect(await (await fetch(`${relay.api}/api/stack`)).text()).not.toContain('mp4 cam');
  }, 30_000);

  it('answers HEAD with the headers a GET gets, and no body', async () => {
    const response = await get('src=cam', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^video\/mp4; codecs="avc1/);
    expect((await response.arrayBuffer()).byteLength).toBe(0);
    await waitFor(async () => ((await consumersOf('cam')) === 0 ? true : undefined));
  }, 30_000);

  it('serves frame.mp4: one keyframe with a Content-Length, decodable to one picture', async () => {
    const response = await fetch(`${relay.api}/api/frame.mp4?src=cam`);
    expect(response.status).toBe(200);
    const body = new Uint8Array(await response.arrayBuffer());
    expect(Number(response.headers.get('content-length'))).toBe(body.length);
    expect(response.headers.get('content-type')).toMatch(/^video\/mp4; codecs="avc1\./);
    const probed = await probeBytes(body, 'frame.mp4');
    expect(probed.streams).toEqual([expect.objectContaining({ codec_name: 'h264', width: 320, height: 240, nb_read_frames: '1' })]);
    const picture = await ffmpegBytes(['-i', join(dir, 'frame.mp4'), '-f', 'rawvideo', '-pix_fmt', 'gray', '-']);
    expect([picture.code, picture.stderr, picture.stdout.length]).toEqual([0, '', 320 * 240]);
    expect(await consumersOf('cam')).toBe(0);
  }, 30_000);

  it('muxes an H.265 source as hevc', async () => {
    const response = await get('src=hevc&duration=1');
    expect(response.headers.get('content-type')).toMatch(/^video\/mp4; codecs="hvc1\.1\.6\.L\d+/);
    const probed = await probeBytes(new Uint8Array(await response.arrayBuffer()), 'hevc.mp4');
    expect(probed.streams[0]).toMatchObject({ codec_name: 'hevc', width: 320, height: 240 });
  }, 30_000);

  it('turns PCMA into FLAC with mp4=flac; without it, says which codecs do not match', async () => {
    const response = await get('src=alaw&mp4=flac&duration=2');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('video/mp4; codecs="flac"');
    const body = new Uint8Array(await response.arrayBuffer());
    expect((await probeBytes(body, 'alaw.mp4')).streams.map((s) => s.codec_name)).toEqual(['flac']);
    const pcm = await ffmpegBytes(['-err_detect', 'crccheck', '-i', join(dir, 'alaw.mp4'), '-f', 's16le', '-']);
    expect([pcm.code, pcm.stderr]).toEqual([0, '']);
    // Two seconds of 8 kHz 16-bit mono (the sine's samples themselves are checked in codecs/flac).
    expect(pcm.stdout.length / 16000).toBeCloseTo(2, 0);

    const refused = await get('src=alaw');
    expect(refused.status).toBe(400);
    const message = await refused.text();
    expect(message).toContain('PCMA');
    expect(message).toContain('MPEG4-GENERIC');
    expect(message).toContain('H264');
  }, 30_000);

  it('plays a source URL through a temporary stream', async () => {
    const url = relay.rtspUrl('cam');
    const response = await get(`src=${encodeURIComponent(url)}&duration=1`);
    expect(response.status).toBe(200);
    expect((await probeBytes(new Uint8Array(await response.arrayBuffer()), 'url.mp4')).streams.map((s) => s.codec_name)).toEqual([
      'h264',
      'aac',
    ]);
    await waitFor(async () =>
      ((await (await fetch(`${relay.api}/api/streams`)).json()) as Record<string, unknown>)[url] === undefined ? true : undefined,
    );
  }, 30_000);

  it('answers bad requests before any body: 404 unknown, 400 exec:, no src, bad duration', async () => {
    const unknown = await get('src=nope');
    expect([unknown.status, await unknown.text()]).toEqual([404, 'stream not found: nope\n']);
    expect((await get(`src=${encodeURIComponent('exec:ffmpeg -i x -f rtsp {output}')}`)).status).toBe(400);
    expect((await fetch(`${relay.api}/api/frame.mp4?src=nope`)).status).toBe(404);
    const noSrc = await get('');
    expect(noSrc.status).toBe(400);
    const badDuration = await get('src=cam&duration=soon');
    expect([badDuration.status, await badDuration.text()]).toEqual([400, 'duration must be a number of seconds above 0, not "soon"\n']);
    expect((await fetch(`${relay.api}/api/frame.mp4?src=alaw`)).status).toBe(400);
  }, 30_000);
});

/** The bytes up to the last complete top-level box (a stream read mid-box). */
function safePrefix(bytes: Uint8Array): Uint8Array {
  let offset = 0;
  while (offset + 8 <= bytes.length) {
    const size = new DataView(bytes.buffer, bytes.byteOffset + offset, 4).getUint32(0);
    if (size < 8 || offset + size > bytes.length) break;
    offset += size;
  }
  return bytes.subarray(0, offset);
}
