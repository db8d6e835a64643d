import { spawn, type ChildProcess } from 'node:child_process';
import { get, type IncomingMessage } from 'node:http';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { publishTestPattern, run, startRelay, waitFor, waitForMedia, type RelayUnderTest } from '../../test/relay-test-kit';

interface MjpegViewer {
  response: IncomingMessage;
  parts: Array<{ headers: Record<string, string>; body: Buffer; at: number }>;
  /** Resolves once `count` parts have arrived. */
  waitForParts(count: number, timeoutMs?: number): Promise<void>;
  close(): void;
}

/** Watches stream.mjpeg and splits the multipart body by each part's Content-Length, as a client does. */
function watch(url: string): Promise<MjpegViewer> {
  return new Promise((resolve, reject) => {
    const request = get(url, (response) => {
      const parts: MjpegViewer['parts'] = [];
      const waiters: Array<() => void> = [];
      let buffer = Buffer.alloc(0);
      response.on('data', (chunk: Buffer) => {
        buffer = Buffer.concat([buffer, chunk]);
        for (;;) {
          const start = buffer.indexOf('--frame\r\n');
          const headerEnd = buffer.indexOf('\r\n\r\n', start);
          if (start < 0 || headerEnd < 0) break;
          const headers = Object.fromEntries(
            buffer
              .subarray(start + 9, headerEnd)
              .toString()
              .split('\r\n')
              .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
          ) as Record<string, string>;
          const length = Number(headers['content-length']);
          if (buffer.length < headerEnd + 4 + length + 2) break;
          parts.push({ headers, body: buffer.subarray(headerEnd + 4, headerEnd + 4 + length), at: Date.now() });
          buffer = buffer.subarray(headerEnd + 4 + length + 2);
          waiters.splice(0).forEach((w) => w());
        }
      });
      response.on('error', () => undefined);
      resolve({
        response,
        parts,
        waitForParts: (count, timeoutMs = 15_000) =>
          new Promise<void>((done, fail) => {
            const timer = setTimeout(() => fail(new Error(`only ${parts.length} of ${count} parts arrived`)), timeoutMs);
            const check = () => {
              if (parts.length >= count) {
                clearTimeout(timer);
                return done();
              }
              waiters.push(check);
            };
            check();
          }),
        close: () => request.destroy(),
      });
    });
    request.on('error', reject);
  });
}

/** ffmpeg publishing a 320x240 MJPEG test pattern over RTSP (standard Huffman tables, as RFC 2435 needs). */
function publishMjpeg(url: string): ChildProcess {
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
      'testsrc=size=320x240:rate=10:duration=60',
      '-c:v',
      'mjpeg',
      '-pix_fmt',
      'yuvj420p',
      '-huffman',
      'default',
      '-q:v',
      '5',
      '-f',
      'rtsp',
      '-rtsp_transport',
      'tcp',
      url,
    ],
    { stdio: 'ignore' },
  );
}

const size = async (jpeg: Buffer) => {
  const meta = await sharp(jpeg).metadata();
  expect(meta.format).toBe('jpeg');
  return `${meta.width}x${meta.height}`;
};

describe('MJPEG and JPEG snapshots', () => {
  let relay: RelayUnderTest;
  const publishers: ChildProcess[] = [];
  const stackLines = async (pattern: RegExp) =>
    (await (await fetch(`${relay.api}/api/stack`)).text()).split('\n').filter((line) => pattern.test(line));

  beforeAll(async () => {
    relay = await startRelay(['  cam:', '  jpegcam:', '  longgop:', '  dead: rtsp://127.0.0.1:1/nothing', ''].join('\n'));
    // longgop: one keyframe in 60 s, so every picture asked for in a test comes from the same one.
    publishers.push(
      publishTestPattern(relay.rtspUrl('cam'), 60),
      publishMjpeg(relay.rtspUrl('jpegcam')),
      publishTestPattern(relay.rtspUrl('longgop'), 60, 1500),
    );
    await waitForMedia(relay, 'cam', 20_000);
    await waitForMedia(relay, 'jpegcam', 20_000);
    await waitForMedia(relay, 'longgop', 20_000);
  }, 40_000);

  afterAll(async () => {
    for (const publisher of publishers) publisher.kill('SIGKILL');
    await relay?.stop();
  });

  it('streams H264 as multipart JPEGs of 320x240 at about the source rate', async () => {
    const viewer = await watch(`${relay.api}/api/stream.mjpeg?src=cam`);
    try {
      expect(viewer.response.statusCode).toBe(200);
      expect(viewer.response.headers['content-type']).toBe('multipart/x-mixed-replace; boundary=frame');
      await viewer.waitForParts(85);
      for (const part of viewer.parts.slice(0, 3)) {
        expect(part.headers['content-type']).toBe('image/jpeg');
        expect(await size(part.body)).toBe('320x240');
      }
      // Three seconds of pictures: the camera is a live encoder that, on a busy machine, falls
      // behind and then catches up in a burst, which over a shorter window read as 42 a second.
      const live = viewer.parts.slice(10, 85);
      const fps = (live.length - 1) / ((live.at(-1)!.at - live[0]!.at) / 1000);
      console.log(`stream.mjpeg: ${fps.toFixed(1)} pictures/s from a 25 fps source`);
      expect(fps).toBeGreaterThan(12);
      expect(fps).toBeLessThan(40);
    } finally {
      viewer.close();
    }
    // ffmpeg's own multipart reader takes the stream as well.
    const probed = await run('ffprobe', [
      '-v',
      'error',
      '-f',
      'mpjpeg',
      '-show_entries',
      'stream=codec_name,width,height',
      '-of',
      'json',
      `${relay.api}/api/stream.mjpeg?src=cam`,
    ]);
    expect(JSON.parse(probed.stdout)).toMatchObject({ streams: [{ codec_name: 'mjpeg', width: 320, height: 240 }] });
  });

  it('shares one ffmpeg between two viewers and stops it when both leave', async () => {
    const transcoders = () => stackLines(/^child .*mjpeg transcoder for cam/);
    await waitFor(async () => ((await transcoders()).length === 0 ? true : undefined)); // the last test's viewer is gone
    const first = await watch(`${relay.api}/api/stream.mjpeg?src=cam`);
    const second = await watch(`${relay.api}/api/stream.mjpeg?src=cam`);
    await Promise.all([first.waitForParts(5), second.waitForParts(5)]);
    expect(await transcoders()).toHaveLength(1);
    const streams = (await (await fetch(`${relay.api}/api/streams?src=cam`)).json()) as { consumers: Array<{ format_name?: string }> };
    expect(streams.consumers.filter((c) => c.format_name === 'mjpeg')).toHaveLength(2);
    first.close();
    await second.waitForParts(second.parts.length + 5); // the other viewer goes on
    expect(await transcoders()).toHaveLength(1);
    second.close();
    await waitFor(async () => ((await transcoders()).length === 0 ? true : undefined));
    await waitFor(async () => ((await stackLines(/^consumer .*mjpeg cam/)).length === 0 ? true : undefined));
  });

  it('answers frame.jpeg from the cached keyframe at once, resized and rotated as asked', async () => {
    const snapshot = async (query: string) => {
      const started = performance.now();
      const response = await fetch(`${relay.api}/api/frame.jpeg?src=cam${query}`);
      const body = Buffer.from(await response.arrayBuffer());
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      expect(Number(response.headers.get('content-length'))).toBe(body.length);
      return { size: await size(body), ms: performance.now() - started, body };
    };
    const first = await snapshot('');
    expect(first.size).toBe('320x240');
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) warm.push((await snapshot('')).ms);
    warm.sort((a, b) => a - b);
    console.log(`frame.jpeg latency: first ${first.ms.toFixed(0)} ms (starts the decoder), then median ${warm[2]!.toFixed(0)} ms`);
    expect(warm[2]).toBeLessThan(1000);
    expect((await snapshot('&w=160')).size).toBe('160x120');
    expect((await snapshot('&height=60')).size).toBe('80x60');
    expect((await snapshot('&rotate=90')).size).toBe('240x320');
    expect((await snapshot('&width=100&h=100')).size).toBe('100x100');
    expect(await stackLines(/^child .*snapshot decoder for cam/)).toHaveLength(1); // one warm decoder, not one per request
  });

  it("after a snapshot, a new MJPEG viewer first gets the warm snapshot decoder's picture of the cached keyframe", async () => {
    // Keeps the stream's GOP cache filled, as a console's live tile would.
    const keeper = await watch(`${relay.api}/api/stream.mjpeg?src=longgop`);
    await keeper.waitForParts(3);
    keeper.close();
    // Once its transcoder is gone, a snapshot comes from the snapshot decoder, which stays up.
    await waitFor(async () => ((await stackLines(/^child .*mjpeg transcoder for longgop/)).length === 0 ? true : undefined));
    const snapshot = Buffer.from(await (await fetch(`${relay.api}/api/frame.jpeg?src=longgop`)).arrayBuffer());
    expect(await size(snapshot)).toBe('320x240');
    expect(await stackLines(/^child .*snapshot decoder for longgop/)).toHaveLength(1);
    const viewer = await watch(`${relay.api}/api/stream.mjpeg?src=longgop`);
    try {
      await viewer.waitForParts(3);
      // The same keyframe through the same decoder: the same bytes as the snapshot. The
      // transcoder's pictures (another quality setting) follow.
      expect(viewer.parts[0]!.body.equals(snapshot)).toBe(true);
      expect(viewer.parts[2]!.body.equals(snapshot)).toBe(false);
      expect(await size(viewer.parts[2]!.body)).toBe('320x240');
    } finally {
      viewer.close();
    }
  });

  it('answers from memory with cache=, and takes a fresh picture without it', async () => {
    const take = async (query: string) => Buffer.from(await (await fetch(`${relay.api}/api/frame.jpeg?src=cam${query}`)).arrayBuffer());
    const fresh = await take('');
    const cached = await take('&cache=1m');
    expect(cached.equals(fresh)).toBe(true);
    // A keyframe a second: once the 500 ms cache is out of date, the next picture is another one.
    await vi.waitFor(async () => expect((await take('&cache=500ms')).equals(fresh)).toBe(false), { timeout: 5_000, interval: 200 });
  });

  it('passes a JPEG source through without ffmpeg', async () => {
    const childrenBefore = (await stackLines(/^child .*(transcoder|decoder) for jpegcam/)).length;
    const viewer = await watch(`${relay.api}/api/stream.mjpeg?src=jpegcam`);
    try {
      await viewer.waitForParts(5);
      expect(await size(viewer.parts[0]!.body)).toBe('320x240');
      const snapshot = await fetch(`${relay.api}/api/frame.jpeg?src=jpegcam&w=32`);
      expect(snapshot.status).toBe(200);
      expect(await size(Buffer.from(await snapshot.arrayBuffer()))).toBe('32x24');
      expect(await stackLines(/^child .*(transcoder|decoder) for jpegcam/)).toHaveLength(childrenBefore);
    } finally {
      viewer.close();
    }
  });

  it('says what is wrong: 400, 404, 503', async () => {
    const status = async (path: string) => {
      const response = await fetch(`${relay.api}${path}`);
      return `${response.status} ${(await response.text()).trim()}`;
    };
    expect(await status('/api/stream.mjpeg')).toMatch(/^400 src is required/);
    expect(await status('/api/frame.jpeg?src=')).toMatch(/^400 src is required/);
    expect(await status('/api/stream.mjpeg?src=nope')).toMatch(/^404 stream not found: nope/);
    expect(await status('/api/frame.jpeg?src=nope')).toMatch(/^404 stream not found: nope/);
    // Both wait out the same first-dial budget of the unreachable source.
    const [frame, stream] = await Promise.all([status('/api/frame.jpeg?src=dead'), status('/api/stream.mjpeg?src=dead')]);
    expect(frame).toMatch(/^503 .*no source is reachable/);
    expect(stream).toMatch(/^503 .*no source is reachable/);
    expect(await status('/api/frame.jpeg?src=cam&w=wide')).toMatch(/^400 w=wide must be a whole number/);
    expect(await status('/api/frame.jpeg?src=cam&rotate=45')).toMatch(/^400 rotate=45 must be 90, 180 or 270/);
    expect(await status('/api/frame.jpeg?src=cam&cache=soon')).toMatch(/^400 cache=soon must be a duration/);
    expect(await status('/api/frame.jpeg?src=exec:rm')).toMatch(/^400 /);
  });
});
