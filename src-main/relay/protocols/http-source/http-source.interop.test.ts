import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countFrames, probe, startRelay, waitFor, type RelayUnderTest } from '../../test/relay-test-kit';

const lavfi = (seconds: number) => [
  '-hide_banner',
  '-loglevel',
  'error',
  '-re',
  '-f',
  'lavfi',
  '-i',
  `testsrc=size=320x240:rate=25:duration=${seconds}`,
  '-f',
  'lavfi',
  '-i',
  `sine=frequency=440:sample_rate=44100:duration=${seconds}`,
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
  '-c:a',
  'aac',
];

/** A camera-like web server: live FLV and MPEG-TS made by ffmpeg per request, and an HLS folder. */
let server: Server;
let base = '';
let hlsDir = '';
let hlsWriter: ChildProcess;
let snapshots = 0;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  hlsDir = await mkdtemp(join(tmpdir(), 'relay-hls-source-'));
  hlsWriter = spawn(
    'ffmpeg',
    [...lavfi(60), '-f', 'hls', '-hls_time', '1', '-hls_list_size', '6', '-hls_flags', 'delete_segments', join(hlsDir, 'index.m3u8')],
    { stdio: 'ignore' },
  );
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/live.flv' || path === '/live.ts') {
      const ffmpeg = spawn('ffmpeg', [...lavfi(30), '-f', path.endsWith('flv') ? 'flv' : 'mpegts', 'pipe:1'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      children.add(ffmpeg);
      // The TS answer has no Content-Type at all, as some encoders do: the relay must sniff it.
      res.writeHead(200, path.endsWith('flv') ? { 'Content-Type': 'video/x-flv' } : {});
      ffmpeg.stdout.pipe(res);
      res.on('close', () => ffmpeg.kill('SIGKILL'));
      return;
    }
    if (path.startsWith('/hls/')) {
      readFile(join(hlsDir, path.slice(5))).then(
        (body) => res.writeHead(200, { 'Content-Type': path.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t' }).end(body),
        () => res.writeHead(404).end(),
      );
      return;
    }
    if (path === '/video.mjpg') {
      const ffmpeg = spawn(
        'ffmpeg',
        [
          '-hide_banner',
          '-loglevel',
          'error',
          '-re',
          '-f',
          'lavfi',
          '-i',
          'testsrc=size=320x240:rate=10:duration=30',
          '-c:v',
          'mjpeg',
          '-pix_fmt',
          'yuvj420p',
          '-q:v',
          '5',
          '-f',
          'mpjpeg',
          '-boundary_tag',
          'camboundary',
          'pipe:1',
        ],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      children.add(ffmpeg);
      res.writeHead(200, { 'Content-Type': 'multipart/x-mixed-replace; boundary=camboundary' });
      ffmpeg.stdout.pipe(res);
      res.on('close', () => ffmpeg.kill('SIGKILL'));
      return;
    }
    if (path === '/snapshot.jpg') {
      snapshots++;
      const ffmpeg = spawn(
        'ffmpeg',
        [
          '-hide_banner',
          '-loglevel',
          'error',
          '-f',
          'lavfi',
          '-i',
          'testsrc=size=320x240:rate=1',
          '-frames:v',
          '1',
          '-pix_fmt',
          'yuvj420p',
          '-q:v',
          '5',
          '-f',
          'mjpeg',
          'pipe:1',
        ],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      const parts: Buffer[] = [];
      ffmpeg.stdout.on('data', (d: Buffer) => parts.push(d));
      ffmpeg.on('close', () => res.writeHead(200, { 'Content-Type': 'image/jpeg' }).end(Buffer.concat(parts)));
      return;
    }
    if (path === '/page') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>login</html>');
    res.writeHead(404).end('no such camera');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  hlsWriter.kill('SIGKILL');
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(hlsDir, { recursive: true, force: true });
});

async function expectPlayable(relay: RelayUnderTest, name: string) {
  const streams = await probe(relay.rtspUrl(name));
  expect(streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
  expect(streams.find((s) => s.codec_type === 'video')).toMatchObject({ width: 320, height: 240 });
  const frames = await countFrames(relay.rtspUrl(name), 2);
  // At least a second of the two: on a loaded 2-core CI machine the source encoder itself falls behind real time.
  expect(frames).toBeGreaterThan(25);
}

describe('http(s) sources', () => {
  it('pulls live FLV (by Content-Type), MPEG-TS (by its bytes) and HLS, and serves them like cameras', async () => {
    const relay = await startRelay(`  flv: ${base}/live.flv\n  ts: ${base}/live.ts\n  hls: ${base}/hls/index.m3u8\n`);
    try {
      await expectPlayable(relay, 'flv');
      await expectPlayable(relay, 'ts');
      await waitFor(
        async () => ((await readFile(join(hlsDir, 'index.m3u8'), 'utf8').catch(() => '')).split('.ts').length > 3 ? true : undefined),
        20_000,
      );
      await expectPlayable(relay, 'hls');
      // While watched, the stats say what the source sends.
      const watching = countFrames(relay.rtspUrl('ts'), 3);
      const live = await waitFor(async () => {
        const info = (await (await fetch(`${relay.api}/api/streams?src=ts`)).json()) as {
          producers: Array<{ format_name?: string; url?: string }>;
        };
        return info.producers[0]?.format_name ? info.producers[0] : undefined;
      });
      expect(live).toMatchObject({ format_name: 'mpegts', url: `${base}/live.ts` });
      await watching;
    } finally {
      await relay.stop();
    }
    // Viewers gone and relay stopped: the camera server sees its connections closed.
    await waitFor(() => ([...children].every((c) => c.exitCode !== null || c.signalCode !== null) ? true : undefined));
  }, 90_000);

  it('pulls MJPEG (multipart) and a JPEG snapshot URL (asked again and again) as JPEG video', async () => {
    const relay = await startRelay(`  mjpeg: ${base}/video.mjpg\n  snapshot: ${base}/snapshot.jpg\n`);
    try {
      expect(await probe(relay.rtspUrl('mjpeg'))).toEqual([expect.objectContaining({ codec_name: 'mjpeg', width: 320, height: 240 })]);
      expect(await countFrames(relay.rtspUrl('mjpeg'), 2)).toBeGreaterThan(12);
      const before = snapshots;
      expect(await probe(relay.rtspUrl('snapshot'))).toEqual([expect.objectContaining({ codec_name: 'mjpeg', width: 320, height: 240 })]);
      expect(snapshots - before).toBeGreaterThan(1);
    } finally {
      await relay.stop();
    }
  }, 60_000);

  it('says why a URL is not a source: an HTTP error, or something that is not video', async () => {
    const relay = await startRelay(`  missing: ${base}/nothing\n  page: ${base}/page\n`);
    try {
      const errorOf = async (name: string) =>
        waitFor(async () => {
          const info = (await (await fetch(`${relay.api}/api/streams?src=${name}`)).json()) as { producers: Array<{ error?: string }> };
          return info.producers[0]?.error;
        });
      // Ask for the streams so the relay dials them.
      void probe(relay.rtspUrl('missing')).catch(() => undefined);
      void probe(relay.rtspUrl('page')).catch(() => undefined);
      expect(await errorOf('missing')).toContain('HTTP 404');
      expect(await errorOf('page')).toContain(
        'sent text/html, which is not MJPEG, JPEG, FLV, MPEG-TS, HLS, raw H.264/H.265, ADTS AAC or WAV',
      );
    } finally {
      await relay.stop();
    }
  }, 30_000);
});
