// The console's live view under load, in real Chromium against the headless console:
//  1. cold start: from launching the console to its first tile playing (state "live" and the
//     picture moving), next to a bare <video src=stream.mp4> on the same engine (no console);
//  2. CPU of Chromium (browser, renderer and GPU processes) and of the engine with 16 live tiles
//     of one 720p camera, for each player mode forced on every tile, next to a bare page of 16
//     <video src=stream.mp4> and one of 16 <img src=stream.mjpeg> (what a page without the
//     console's player would cost).
// The camera is ffmpeg publishing 1280x720 H264 at 25 fps into a second relay process (the
// "camera", not measured); the console's 16 tile streams each pull it over RTSP, as 16 cameras
// of one model would be pulled.
//
//   npm run bench:console-tiles [-- --seconds 10 --tiles 16]
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildAll } from '../scripts/build.mjs';
import { freePort } from '../src-main/test-support/free-port';
import { descendants, treeCpuSeconds } from './process-stats';
import { CAMERA_X264 } from './lib/looped-clip';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, tiles: { type: 'string', default: '16' } } });
const seconds = Number(values.seconds);
const tileCount = Number(values.tiles);
const MODES = ['WebRTC', 'MSE', 'HLS', 'MJPEG'] as const;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const names = Array.from({ length: tileCount }, (_, i) => `t${String(i + 1).padStart(2, '0')}`);

async function writeConfig(dir: string, name: string, text: string): Promise<string> {
  await mkdir(join(dir, name), { recursive: true });
  const path = join(dir, name, 'relay.yaml');
  await writeFile(
    path,
    `data_dir: ./data\napi:\n  listen: 127.0.0.1:0\nwebrtc:\n  listen: 127.0.0.1:0\nlog:\n  level: error\nstorage:\n  emulator:\n    enabled: false\ndirectory:\n  emulator:\n    enabled: false\n${text}`,
  );
  return path;
}

async function startConsole(config: string): Promise<{ child: ChildProcess; url: string; startedAt: number; readyMs: number }> {
  const startedAt = performance.now();
  const child = spawn(process.execPath, ['dist/main/headless.js', '--config', config], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /at (http:\/\/\S+)\//.exec(out);
      if (match) resolve(match[1]!);
    });
  });
  return { child, url, startedAt, readyMs: performance.now() - startedAt };
}

async function launchBrowser(): Promise<{ browser: Browser; pid: number }> {
  const before = new Set(descendants(process.pid));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--autoplay-policy=no-user-gesture-required',
      '--disable-background-timer-throttling',
      '--disable-renderer-backgrounding',
    ],
  });
  // The browser is the one new child of this process whose command line is Chromium's.
  const pid = descendants(process.pid).find((p) => !before.has(p) && /chrom/i.test(readCmdline(p)))!;
  return { browser, pid };
}

function readCmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/**
 * CPU used by the browser tree and by the engine over `seconds`, in cores (1.0 = one core
 * busy). The engine counts with its ffmpeg children: MJPEG re-encoding is its work too.
 */
async function measureCpu(browserPid: number, enginePid: number): Promise<{ browser: number; engine: number }> {
  await sleep(3_000);
  const b0 = treeCpuSeconds(browserPid);
  const e0 = treeCpuSeconds(enginePid);
  await sleep(seconds * 1000);
  return { browser: (treeCpuSeconds(browserPid) - b0) / seconds, engine: (treeCpuSeconds(enginePid) - e0) / seconds };
}

/** Progress on stderr, so a long run shows where it is. */
const progress = (message: string) => process.stderr.write(`[console-tiles] ${message}\n`);

const liveStates = (page: Page) => page.getByLabel(/^state /).filter({ hasText: /^live$/ });

async function main(): Promise<void> {
  await buildAll({ quiet: true });
  const dir = await mkdtemp(join(tmpdir(), 'rc-bench-tiles-'));
  const rtspPort = await freePort();
  const cameraRelay = await startConsole(await writeConfig(dir, 'camera', `rtsp:\n  listen: 127.0.0.1:${rtspPort}\nstreams:\n  cam:\n`));
  const tileStreams = names.map((name) => `  ${name}: rtsp://127.0.0.1:${rtspPort}/cam\n`).join('');
  const config = await writeConfig(dir, 'console', `rtsp:\n  listen: 127.0.0.1:0\nstreams:\n${tileStreams}`);
  const camera = spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-re',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=1280x720:rate=25',
      ...CAMERA_X264,
      '-f',
      'rtsp',
      '-rtsp_transport',
      'tcp',
      `rtsp://127.0.0.1:${rtspPort}/cam`,
    ],
    { stdio: 'ignore' },
  );
  await sleep(2_000);
  const { browser, pid: browserPid } = await launchBrowser();

  progress('camera publishing; starting the console');
  // 1. Cold start of the console to its first live tile, the camera already publishing.
  const engine = await startConsole(config);
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.goto(`${engine.url}/#/live`);
  await liveStates(page).first().waitFor({ timeout: 60_000 });
  const firstTileMs = performance.now() - engine.startedAt;
  // Moving: the first tile's video plays on (its time advances), or its MJPEG image has a frame.
  await page.waitForFunction(
    () => {
      const video = document.querySelector<HTMLVideoElement>('video:not([hidden])');
      if (video) {
        const seen = Number(video.dataset.benchFirstTime ?? video.currentTime);
        video.dataset.benchFirstTime = String(seen);
        return video.currentTime > seen + 0.2;
      }
      const img = document.querySelector<HTMLImageElement>('img:not([hidden])');
      return Boolean(img && img.naturalWidth > 0);
    },
    undefined,
    { timeout: 60_000, polling: 50 },
  );
  const firstMovingMs = performance.now() - engine.startedAt;

  const bare = await browser.newPage();
  const bareFirstFrame = await bare.evaluate(async (url) => {
    const start = performance.now();
    const video = document.createElement('video');
    Object.assign(video, { muted: true, autoplay: true, src: url });
    document.body.append(video);
    return new Promise<number>((resolve) => video.requestVideoFrameCallback(() => resolve(performance.now() - start)));
  }, `${engine.url}/api/stream.mp4?src=t01`);
  await bare.close();

  progress(`first tile live after ${firstTileMs.toFixed(0)} ms`);
  // 2. Sixteen tiles in a 4×4 grid, each mode forced on every tile in turn.
  await page.getByRole('radiogroup', { name: 'Layout' }).getByText('4×4', { exact: true }).click();
  const rows: Array<[string, { browser: number; engine: number; live?: string }]> = [];
  for (const mode of MODES) {
    for (const name of names) {
      await page.getByRole('button', { name: `Playback mode of ${name}` }).click();
      await page.getByRole('menuitem', { name: `${mode} only` }).click();
    }
    await page.waitForFunction((n) => document.querySelectorAll('[aria-label^="state "]').length >= n, tileCount);
    // On a small machine not every mode gets all tiles live (MJPEG re-encodes each one in the
    // engine): measure after a minute either way and say how many played.
    await liveStates(page)
      .nth(tileCount - 1)
      .waitFor({ timeout: 60_000 })
      .catch(() => undefined);
    const liveBefore = await liveStates(page).count();
    progress(`${liveBefore} of ${tileCount} tiles live in ${mode}; measuring`);
    const cpu = await measureCpu(browserPid, engine.child.pid!);
    rows.push([`console, ${mode}`, { ...cpu, live: `${liveBefore}→${await liveStates(page).count()}` }]);
    progress(`${mode}: Chromium ${cpu.browser.toFixed(2)} cores, engine ${cpu.engine.toFixed(2)} cores`);
  }
  await page.close();

  for (const [label, element] of [
    [
      'bare <video src=stream.mp4>',
      (n: string) => `<video muted autoplay src="${engine.url}/api/stream.mp4?src=${n}" width="320"></video>`,
    ],
    ['bare <img src=stream.mjpeg>', (n: string) => `<img src="${engine.url}/api/stream.mjpeg?src=${n}" width="320">`],
  ] as const) {
    const peer = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    // Endless media never fire "load": the page counts as set once its elements exist.
    await peer.setContent(
      `<!doctype html><body style="display:grid;grid-template-columns:repeat(4,1fr);margin:0">${names.map(element).join('')}</body>`,
      { waitUntil: 'domcontentloaded' },
    );
    rows.push([label, await measureCpu(browserPid, engine.child.pid!)]);
    await peer.close();
  }

  console.log(
    `\nConsole live tiles: one 1280x720 H264 camera at 25 fps, ${tileCount} tiles (${process.platform}, ${cpus().length} cores, Chromium without GPU)\n`,
  );
  console.log('cold start (launch of the headless console → ...):');
  console.log(`  engine answering          ${engine.readyMs.toFixed(0)} ms`);
  console.log(`  first tile live           ${firstTileMs.toFixed(0)} ms`);
  console.log(`  first tile moving         ${firstMovingMs.toFixed(0)} ms`);
  console.log(`  peer: bare <video> on the running engine, load to first frame ${bareFirstFrame.toFixed(0)} ms`);
  console.log(`\nCPU with ${tileCount} live tiles, ${seconds} s measured per row (cores busy: 1.00 = one core):`);
  console.log(`                                 Chromium   engine   tiles live (of ${tileCount}, before→after)`);
  for (const [label, cpu] of rows) {
    console.log(`  ${label.padEnd(30)} ${cpu.browser.toFixed(2).padStart(7)} ${cpu.engine.toFixed(2).padStart(8)}   ${cpu.live ?? '-'}`);
  }

  await browser.close();
  camera.kill('SIGKILL');
  for (const relay of [engine.child, cameraRelay.child]) {
    relay.kill('SIGTERM');
    await new Promise((r) => relay.once('exit', r));
  }
  await rm(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
