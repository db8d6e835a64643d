import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { run, startRelay, waitFor, waitForMedia, type RelayUnderTest } from '../test/relay-test-kit';
import { within } from '../../test-support/time';

/**
 * A camera that restarts at another picture size: the relay must never hand out a picture (or
 * codec parameters) of the connection before. ffmpeg publishes a test pattern into a relay's
 * RTSP server; a second relay pulls it over rtsp:// as it would pull a camera.
 */

/**
 * ffmpeg publishing an H.264 test pattern of `size` (e.g. `640x480`) into `url` over RTSP/TCP.
 * ffmpeg puts the SPS and PPS only in the SDP; `inBand` also sends them before each keyframe,
 * as most cameras do.
 */
function publishAt(url: string, size: string, inBand = false, seconds = 60): ChildProcess {
  return spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-re',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=${size}:rate=25:duration=${seconds}`,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-tune',
      'zerolatency',
      '-g',
      '25',
      '-pix_fmt',
      'yuv420p',
      ...(inBand ? ['-bsf:v', 'dump_extra=freq=keyframe'] : []),
      '-f',
      'rtsp',
      '-rtsp_transport',
      'tcp',
      url,
    ],
    { stdio: 'ignore' },
  );
}

async function stopPublisher(publisher: ChildProcess): Promise<void> {
  if (publisher.exitCode !== null || publisher.signalCode !== null) return;
  const exited = new Promise((resolve) => publisher.once('exit', resolve));
  publisher.kill('SIGKILL');
  await exited;
}

interface StreamInfo {
  producers: Array<{ url?: string; medias?: string[] }>;
  consumers: unknown[];
}
const streamInfo = async (relay: RelayUnderTest, name: string) =>
  (await (await fetch(`${relay.api}/api/streams?src=${name}`)).json()) as StreamInfo;

/** No publisher left in a push-target stream. */
const publisherGone = (relay: RelayUnderTest, name: string) =>
  waitFor(async () => ((await streamInfo(relay, name)).producers.length === 0 ? true : undefined), 15_000);

/** Nobody watches and the pulled source is disconnected (an idle producer is `{url}` only). */
const idle = (relay: RelayUnderTest, name: string) =>
  waitFor(async () => {
    const info = await streamInfo(relay, name);
    return info.consumers.length === 0 && info.producers.every((p) => !p.medias) ? true : undefined;
  }, 15_000);

/** A small grey thumbnail, to compare pictures by their content. */
const thumbnail = (jpeg: Buffer) => sharp(jpeg).resize(64, 48, { fit: 'fill' }).greyscale().raw().toBuffer();

/** The test pattern as ffmpeg draws it at `size` (its bars and frame do not move). */
async function testPattern(size: string): Promise<Buffer> {
  const result = await new Promise<Buffer>((resolve, reject) => {
    const child = spawn(
      'ffmpeg',
      ['-v', 'error', '-f', 'lavfi', '-i', `testsrc=size=${size}:rate=25`, '-frames:v', '1', '-f', 'mjpeg', 'pipe:1'],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', () => resolve(Buffer.concat(chunks)));
  });
  return thumbnail(result);
}

/**
 * frame.jpeg's picture size, after checking it shows the test pattern (a keyframe decoded with
 * another connection's parameter sets comes out as the right size of garbage).
 */
async function snapshotSize(relay: RelayUnderTest, query: string): Promise<string> {
  const response = await fetch(`${relay.api}/api/frame.jpeg?${query}`);
  const body = Buffer.from(await response.arrayBuffer());
  expect(response.status, body.toString()).toBe(200);
  const meta = await sharp(body).metadata();
  const size = `${meta.width}x${meta.height}`;
  const [got, pattern] = await Promise.all([thumbnail(body), testPattern(size)]);
  const distance = got.reduce((sum, value, i) => sum + Math.abs(value - pattern[i]!), 0) / got.length;
  expect(distance, `frame.jpeg?${query} is ${size} but does not look like the test pattern`).toBeLessThan(20);
  return size;
}

/** The sizes of the first pictures ffmpeg decodes from `url`, and whatever the decoder complained about. */
async function decodedSizes(url: string, frames: number): Promise<{ sizes: string[]; errors: string }> {
  const result = await run(
    'ffprobe',
    ['-v', 'error', '-select_streams', 'v:0', '-read_intervals', `%+#${frames}`, '-show_entries', 'frame=width,height', '-of', 'json', url],
    30_000,
  );
  const parsed = JSON.parse(result.stdout || '{}') as { frames?: Array<{ width: number; height: number }> };
  return { sizes: (parsed.frames ?? []).map((f) => `${f.width}x${f.height}`), errors: result.stderr.trim() };
}

/** Every picture a viewer gets, as ffmpeg decodes it: all of `size`, no decoder error. */
async function expectPicturesOf(relay: RelayUnderTest, name: string, size: string): Promise<void> {
  expect(await snapshotSize(relay, `src=${name}`)).toBe(size);
  const frame = await decodedSizes(`${relay.api}/api/frame.mp4?src=${name}`, 1);
  expect(frame).toEqual({ sizes: [size], errors: '' });
  const live = await decodedSizes(`${relay.api}/api/stream.mp4?src=${name}&duration=1`, 10);
  expect(live.errors).toBe('');
  expect(live.sizes.length).toBeGreaterThan(0);
  expect(new Set(live.sizes)).toEqual(new Set([size]));
}

/** A long GET, kept open: its bytes so far, the newest JPEG in it (MJPEG), and its end. */
function download(url: string) {
  const chunks: Buffer[] = [];
  let size = 0;
  const request = get(url);
  const end = new Promise<Buffer>((resolve, reject) => {
    request.on('response', (response) => {
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
      });
      response.on('end', () => resolve(Buffer.concat(chunks)));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
  void end.catch(() => undefined);
  return {
    bytes: () => size,
    ended(timeoutMs: number): Promise<Buffer> {
      return within(end, timeoutMs, `the end of ${url}`);
    },
    lastJpeg(): Buffer | undefined {
      const all = Buffer.concat(chunks);
      const eoi = all.lastIndexOf(Buffer.from([0xff, 0xd9]));
      const soi = eoi < 0 ? -1 : all.lastIndexOf(Buffer.from([0xff, 0xd8, 0xff]), eoi);
      return soi < 0 ? undefined : all.subarray(soi, eoi + 2);
    },
    close: () => request.destroy(),
  };
}

/** An HLS session kept alive by asking for its playlist every second, as a player does. */
async function hlsSession(masterUrl: string) {
  const master = await (await fetch(masterUrl)).text();
  const playlist = new URL(
    master.split('\n').find((line) => line.startsWith('hls/'))!,
    masterUrl,
  ).toString();
  const poll = () => fetch(playlist);
  const timer = setInterval(
    () =>
      void poll()
        .then((r) => r.arrayBuffer())
        .catch(() => undefined),
    1000,
  );
  return { poll, stop: () => clearInterval(timer) };
}

describe('a camera that comes back with another picture size', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'source-change-'));
  });
  afterAll(() => rm(tmp, { recursive: true, force: true }));

  const publishers: ChildProcess[] = [];
  const publish = (url: string, size: string, inBand = false) => {
    const publisher = publishAt(url, size, inBand);
    publishers.push(publisher);
    return publisher;
  };
  afterEach(async () => {
    for (const publisher of publishers.splice(0)) await stopPublisher(publisher);
  });

  describe('pushed into the relay', () => {
    let relay: RelayUnderTest;
    beforeAll(async () => {
      relay = await startRelay('  cam:\n');
    }, 20_000);
    afterAll(() => relay?.stop());

    it('snapshots, frame.mp4 and a new stream.mp4 viewer show the new size, also with cache=', async () => {
      const first = publish(relay.rtspUrl('cam'), '320x240');
      await waitForMedia(relay, 'cam', 20_000);
      await expectPicturesOf(relay, 'cam', '320x240');
      expect(await snapshotSize(relay, 'src=cam&cache=1m')).toBe('320x240');

      await stopPublisher(first);
      await publisherGone(relay, 'cam');
      publish(relay.rtspUrl('cam'), '640x480');
      await waitForMedia(relay, 'cam', 20_000);
      // The picture remembered for cache= came from the publisher that left: another source now.
      expect(await snapshotSize(relay, 'src=cam&cache=1m')).toBe('640x480');
      await expectPicturesOf(relay, 'cam', '640x480');
    }, 90_000);
  });

  describe('pulled over rtsp:// from a camera that restarts', () => {
    let camera: RelayUnderTest;
    let relay: RelayUnderTest;
    beforeAll(async () => {
      camera = await startRelay('  cam:\n');
      relay = await startRelay(`  door: ${camera.rtspUrl('cam')}\n`);
    }, 30_000);
    afterAll(async () => {
      await relay?.stop();
      await camera?.stop();
    });

    it.each([
      ['before each keyframe', true],
      ['in the SDP only', false],
    ])(
      'an idle stream dials the camera again instead of answering from the last connection (parameter sets %s)',
      async (_, inBand) => {
        const first = publish(camera.rtspUrl('cam'), '320x240', inBand);
        await waitForMedia(camera, 'cam', 20_000);
        await expectPicturesOf(relay, 'door', '320x240');
        expect(await snapshotSize(relay, 'src=door&cache=1m')).toBe('320x240');
        await idle(relay, 'door');

        await stopPublisher(first);
        await publisherGone(camera, 'cam');
        publish(camera.rtspUrl('cam'), '640x480', inBand);
        await waitForMedia(camera, 'cam', 20_000);
        expect(await snapshotSize(relay, 'src=door&cache=1m')).toBe('640x480');
        await expectPicturesOf(relay, 'door', '640x480');
        await idle(relay, 'door');
      },
      120_000,
    );

    it('viewers that stay while the camera restarts: stream.mp4 ends before the new size, MJPEG goes on at it', async () => {
      const first = publish(camera.rtspUrl('cam'), '320x240', true);
      await waitForMedia(camera, 'cam', 20_000);
      const mp4 = download(`${relay.api}/api/stream.mp4?src=door`);
      const mjpeg = download(`${relay.api}/api/stream.mjpeg?src=door`);
      const hls = await hlsSession(`${relay.api}/api/stream.m3u8?src=door&mp4`);
      await waitFor(() => (mp4.bytes() > 50_000 && mjpeg.bytes() > 50_000 ? true : undefined), 20_000);

      await stopPublisher(first);
      await publisherGone(camera, 'cam');
      publish(camera.rtspUrl('cam'), '640x480', true);
      // The relay pulling the camera reconnects by itself (its viewers still want the stream).
      const ended = await mp4.ended(30_000);
      const file = join(tmp, 'kept.mp4');
      await writeFile(file, ended);
      const decoded = await decodedSizes(file, 1000);
      expect(decoded.errors).toBe('');
      expect(decoded.sizes.length).toBeGreaterThan(25);
      expect(new Set(decoded.sizes)).toEqual(new Set(['320x240']));
      // An HLS fMP4 session hangs off one init segment too: it ends, the player opens another.
      const ending = await waitFor(async () => {
        const response = await hls.poll();
        return response.status === 404 ? await response.text() : undefined;
      }, 20_000);
      expect(ending).toMatch(/open \/api\/stream.m3u8 again/);
      hls.stop();

      // The MJPEG viewer is still there, and its pictures are of the new size now.
      await waitFor(async () => {
        const last = mjpeg.lastJpeg();
        return last && (await sharp(last).metadata()).width === 640 ? true : undefined;
      }, 20_000);
      const picture = mjpeg.lastJpeg()!;
      const [got, pattern] = await Promise.all([thumbnail(picture), testPattern('640x480')]);
      expect(got.reduce((sum, value, i) => sum + Math.abs(value - pattern[i]!), 0) / got.length).toBeLessThan(20);
      mjpeg.close();
      await idle(relay, 'door');
    }, 120_000);
  });
});
