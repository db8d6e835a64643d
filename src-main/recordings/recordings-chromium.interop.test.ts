import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import qiniu from 'qiniu';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGstCamera, type GstCamera } from '../relay/protocols/rtsp/test-support/gst-camera';
import { sdkConfig } from '../storage/emulator/test-support';
import { run } from '../relay/test/relay-test-kit';
import { freePort } from '../test-support/free-port';
import { waitUntil } from '../test-support/time';

// A GStreamer camera (1280x720 H.264 at 15 fps, a keyframe a second, G.711 audio) recorded with
// `schedule: always` and 4 s segments by an engine in a process of its own, into a bucket of
// the storage emulator in another: ffprobe, ffmpeg and hls.js in Chromium read what it made,
// then the bucket goes away, the engine is killed with SIGKILL, and both come back.

const VITE_NODE = resolve('node_modules/vite-node/vite-node.mjs');
const AK = 'rec-interop-ak';
const SK = 'rec-interop-sk-secret';

interface Listed {
  key: string;
  start: string;
  end: string;
  bytes: number;
}

interface Child {
  child: ChildProcess;
  output: () => string;
  /** Resolves with what the `pattern`'s first group matched in the output. */
  ready: Promise<string>;
}

function startChild(args: string[], pattern: RegExp): Child {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const ready = new Promise<string>((resolveReady, reject) => {
    const seen = (d: Buffer) => {
      out += d.toString();
      const match = pattern.exec(out);
      if (match) resolveReady(match[1]!);
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', (code, signal) => reject(new Error(`${args.at(1)} exited (${code ?? signal}): ${out.slice(-2000)}`)));
  });
  ready.catch(() => undefined);
  return { child, ready, output: () => out };
}

async function kill(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

let camera: GstCamera;
let dir: string;
let emulatorPort: number;
let emulator: Child | undefined;
let engine: Child | undefined;
let api: string;
let browser: Browser | undefined;
let listed: Listed[] = [];

const startEmulator = () => {
  emulator = startChild(
    [VITE_NODE, resolve('src-main/storage/emulator/main.storage-emulator.ts'), '--', '--config', join(dir, 'emulator.yaml')],
    /storage emulator at (http:\S+)/,
  );
  return emulator.ready;
};
const startRecordingEngine = async () => {
  engine = startChild(
    [VITE_NODE, resolve('src-main/recordings/test-support/recording-engine.ts'), '--', join(dir, 'engine.yaml')],
    /listening (http:\S+)/,
  );
  api = await engine.ready;
};
const list = async (): Promise<Listed[]> =>
  ((await (await fetch(`${api}/api/recordings?src=cam`)).json()) as { segments: Listed[] }).segments;
const spanSeconds = (segments: Listed[]) =>
  segments.length ? (Date.parse(segments.at(-1)!.end) - Date.parse(segments[0]!.start)) / 1000 : 0;
const bucket = () => new qiniu.rs.BucketManager(new qiniu.auth.digest.Mac(AK, SK), sdkConfig(`127.0.0.1:${emulatorPort}`));
/** The files in the engine's spool, and the keys of its finished segments (each a `.json` beside its `.mp4`). */
async function spool(): Promise<{ files: string[]; keys: string[] }> {
  const root = join(dir, 'engine-data', 'recordings', 'spool');
  const files: string[] = [];
  const keys: string[] = [];
  for (const folder of await readdir(root).catch(() => [] as string[])) {
    for (const name of await readdir(join(root, folder))) {
      files.push(join(folder, name));
      if (name.endsWith('.json')) keys.push((JSON.parse(await readFile(join(root, folder, name), 'utf8')) as { key: string }).key);
    }
  }
  return { files, keys: keys.sort() };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'recordings-interop-'));
  emulatorPort = await freePort();
  const account = `      - access_key: ${AK}\n        secret_key: ${SK}`;
  await writeFile(
    join(dir, 'emulator.yaml'),
    `data_dir: ${join(dir, 'emulator-data')}\nlog:\n  level: warn\nstorage:\n  emulator:\n    listen: 127.0.0.1:${emulatorPort}\n    accounts:\n${account}\n        buckets:\n          - name: rec\n            domains: [rec.test]\n`,
  );
  camera = await startGstCamera({ size: '1280x720' });
  await writeFile(
    join(dir, 'engine.yaml'),
    [
      `data_dir: ${join(dir, 'engine-data')}`,
      'api:\n  listen: 127.0.0.1:0',
      'rtsp:\n  listen: ""',
      'webrtc:\n  listen: 127.0.0.1:0',
      'log:\n  level: info',
      // The storage client's `local` account: the emulator the test runs apart.
      `storage:\n  emulator:\n    listen: 127.0.0.1:${emulatorPort}\n    accounts:\n${account}`,
      `streams:\n  cam: ${camera.url}`,
      'recordings:\n  cam:\n    bucket: rec\n    segment: 4s\n    schedule: always\n    retain_days: 30',
      '',
    ].join('\n'),
  );
  await startEmulator();
  await startRecordingEngine();
  // 30 s of recording: the listing spans at least 28 s (seven 4 s segments) once they are up.
  listed = await waitUntil(
    async () => {
      const segments = await list();
      return spanSeconds(segments) >= 28 && segments;
    },
    { timeout: 90_000, interval: 500, what: '30 s of recording in the bucket' },
  );
}, 150_000);

afterAll(async () => {
  await browser?.close();
  await kill(engine?.child);
  await kill(emulator?.child);
  await camera?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('recording a GStreamer camera into a Kodo bucket', () => {
  it('makes segments of about 4 s, one after the other, each in the bucket with its listed size and metadata', async () => {
    expect(listed.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < listed.length; i++) {
      const gap = Date.parse(listed[i]!.start) - Date.parse(listed[i - 1]!.end);
      expect(Math.abs(gap), `gap before ${listed[i]!.key}`).toBeLessThan(500);
    }
    const manager = bucket();
    for (const segment of listed) {
      expect(segment.key).toMatch(/^recordings\/cam\/\d{4}-\d{2}-\d{2}\/\d{2}-\d{2}-\d{2}\.\d{3}Z\.mp4$/);
      const length = (Date.parse(segment.end) - Date.parse(segment.start)) / 1000;
      expect(length).toBeGreaterThanOrEqual(3.9);
      expect(length).toBeLessThan(5.1);
      const { data, resp } = await manager.stat('rec', segment.key);
      expect(resp.statusCode).toBe(200);
      expect(data).toMatchObject({
        fsize: segment.bytes,
        mimeType: 'video/mp4',
        'x-qn-meta': { start: segment.start, end: segment.end, stream: 'cam', codecs: expect.stringMatching(/^avc1\.[0-9A-F]{6},flac$/) },
      });
    }
    // A lifecycle rule on the prefix keeps them 30 days.
    const rules = (await manager.getBucketLifecycleRule('rec')).data as Array<{ prefix: string; delete_after_days: number }>;
    expect(rules).toEqual([expect.objectContaining({ prefix: 'recordings/cam/', delete_after_days: 30 })]);
  });

  it('each segment is an MP4 of its own: ffprobe reads H.264 1280x720 and its length', async () => {
    for (const segment of listed.slice(0, 3)) {
      const probe = await run('ffprobe', [
        '-v',
        'error',
        '-show_entries',
        'stream=codec_name,width,height,duration',
        '-of',
        'json',
        `http://127.0.0.1:${emulatorPort}/download/rec/${segment.key}`,
      ]);
      const streams = (
        JSON.parse(probe.stdout) as { streams: Array<{ codec_name: string; width?: number; height?: number; duration: string }> }
      ).streams;
      expect(streams[0]).toMatchObject({ codec_name: 'h264', width: 1280, height: 720 });
      expect(Number(streams[0]!.duration)).toBeCloseTo((Date.parse(segment.end) - Date.parse(segment.start)) / 1000, 1);
    }
  });

  it('the VOD playlist plays in ffmpeg for more than 12 s, segment after segment without an error', async () => {
    const url = `${api}/api/recordings.m3u8?src=cam&start=${listed[0]!.start}&end=${listed.at(-1)!.end}`;
    const played = await run('ffmpeg', ['-hide_banner', '-v', 'error', '-stats', '-i', url, '-map', '0:v', '-f', 'null', '-'], 60_000);
    expect(played.code).toBe(0);
    const time =
      [...played.stderr.matchAll(/time=(\d+):(\d+):([\d.]+)/g)].map((m) => Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3])).at(-1) ??
      0;
    const frames = Number([...played.stderr.matchAll(/frame=\s*(\d+)/g)].at(-1)?.[1] ?? 0);
    expect(time).toBeGreaterThanOrEqual(12);
    expect(time).toBeCloseTo(spanSeconds(listed), 0);
    expect(frames).toBeGreaterThanOrEqual(12 * 15 * 0.95);
    expect(played.stderr.replace(/frame=.*$/gm, '').trim()).toBe('');
  }, 90_000);

  it('a range joined into one MP4 download is cut at keyframes and ffprobe reads its length', async () => {
    const from = Date.parse(listed[0]!.start) + 2_500;
    const to = from + 12_000;
    const response = await fetch(
      `${api}/api/recordings.mp4?src=cam&start=${new Date(from).toISOString()}&end=${new Date(to).toISOString()}`,
    );
    expect(response.status).toBe(200);
    const file = join(dir, 'joined.mp4');
    await writeFile(file, Buffer.from(await response.arrayBuffer()));
    const probe = await run('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_name,width,height,duration:format=duration,start_time',
      '-of',
      'json',
      file,
    ]);
    const read = JSON.parse(probe.stdout) as {
      streams: Array<{ codec_name: string; width?: number; duration: string }>;
      format: { duration: string; start_time: string };
    };
    expect(read.streams[0]).toMatchObject({ codec_name: 'h264', width: 1280 });
    // 12 s asked; the cut goes back to the keyframe before the start and on to the one after the end (a GOP is 1 s).
    const duration = Number(read.streams[0]!.duration);
    expect(duration).toBeGreaterThanOrEqual(11.9);
    expect(duration).toBeLessThanOrEqual(14.1);
    expect(Number(read.format.start_time)).toBeLessThan(0.1);
    const decoded = await run('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-']);
    expect([decoded.code, decoded.stderr.trim()]).toEqual([0, '']);
  }, 60_000);

  it('hls.js in Chromium plays the VOD playlist for more than 12 s at the camera size', async () => {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--autoplay-policy=no-user-gesture-required',
      ],
    });
    const page = await browser.newPage();
    // A page of the relay's own origin, as the console is.
    await page.goto(`${api}/api`);
    const require = createRequire(import.meta.url);
    await page.addScriptTag({ path: require.resolve('hls.js/dist/hls.min.js') });
    const url = `${api}/api/recordings.m3u8?src=cam&start=${listed[0]!.start}&end=${listed.at(-1)!.end}`;
    await page.evaluate((source) => {
      const video = document.createElement('video');
      video.id = 'recording';
      video.muted = true;
      document.body.append(video);
      type HlsLike = {
        loadSource(u: string): void;
        attachMedia(v: HTMLVideoElement): void;
        on(event: string, listener: (name: string, data: { fatal: boolean; details: string }) => void): void;
      };
      const Hls = (window as unknown as { Hls: (new () => HlsLike) & { Events: { ERROR: string } } }).Hls;
      const hls = new Hls();
      (window as unknown as { fatal: string[] }).fatal = [];
      hls.on(Hls.Events.ERROR, (_name, data) => data.fatal && (window as unknown as { fatal: string[] }).fatal.push(data.details));
      hls.loadSource(source);
      hls.attachMedia(video);
      // Played faster than real time: the test is about the media, not about waiting.
      video.playbackRate = 2;
      void video.play();
    }, url);
    const played = await page
      .waitForFunction(
        () => {
          const video = document.getElementById('recording') as HTMLVideoElement;
          const fatal = (window as unknown as { fatal: string[] }).fatal;
          if (fatal.length > 0) return { fatal };
          return video.currentTime >= 12.5 && { width: video.videoWidth, height: video.videoHeight, fatal };
        },
        undefined,
        { timeout: 60_000, polling: 250 },
      )
      .then((handle) => handle.jsonValue());
    expect(played).toEqual({ width: 1280, height: 720, fatal: [] });
  }, 90_000);

  it('kill -9 of the engine while the bucket is away loses nothing listed; the next start uploads the spool and records on', async () => {
    const before = (await list()).map((s) => s.key);
    await kill(emulator?.child);
    // The bucket cannot be reached: finished segments wait in the spool.
    const spooled = await waitUntil(
      async () => {
        const now = await spool();
        return now.keys.length >= 2 && now.keys;
      },
      { timeout: 30_000, interval: 250, what: 'two segments in the spool' },
    );
    await kill(engine?.child);
    const killedAt = Date.now();
    const left = await spool();
    expect(left.keys.slice(0, spooled.length)).toEqual(spooled);
    // The open segment: a .part the kill cut short.
    expect(left.files.some((file) => file.endsWith('.part'))).toBe(true);

    await startEmulator();
    await startRecordingEngine();
    const recovered = await waitUntil(
      async () => {
        const segments = await list();
        const keys = segments.map((s) => s.key);
        const resumed = segments.some((s) => Date.parse(s.start) > killedAt);
        return resumed && [...before, ...left.keys].every((key) => keys.includes(key)) && keys;
      },
      { timeout: 60_000, interval: 500, what: 'the spool uploaded and recording resumed after the restart' },
    );
    expect(recovered).toEqual(expect.arrayContaining([...before, ...left.keys]));
    // Nothing the killed run left is in the spool any more: uploaded, or (the cut-short .part) removed.
    const now = await spool();
    expect(now.files.filter((file) => left.files.includes(file))).toEqual([]);
  }, 150_000);
});
