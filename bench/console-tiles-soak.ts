// Soak of the console's live view: 16 tiles (4×4) of one camera playing in Chromium for
// `--minutes`, in the mode the player picks by itself (WebRTC in Chromium). Once every tile is
// live, each tile's state is watched 10 times a second and its media requests are counted; the
// relay's consumers are sampled every 5 s. Printed per tile: stalls (live → stalled), reconnects
// (live → reconnecting, connecting again or source unavailable), the longest time not live, the
// media requests after the first, and how often the relay listed no consumer for its stream
// (the viewers the issue saw dropped). The goal is 0 stalls and 0 reconnects on every tile.
// To tell the causes of stalls apart, it also records when the page's own timers were late by
// more than 0.5 s (the renderer got no CPU), when the relay received no bytes from the camera
// for a second (the camera or its encoder stopped), and the machine's load average.
// The camera is ffmpeg publishing H.264 into a second relay process (not measured); each tile
// stream pulls it over RTSP, as 16 cameras of one model would be pulled.
//
//   npm run bench:console-soak [-- --minutes 10 --tiles 16 --size 640x360 --fps 25 --skip-build]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { buildAll } from '../scripts/build.mjs';
import { freePort } from '../src-main/test-support/free-port';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    tiles: { type: 'string', default: '16' },
    size: { type: 'string', default: '640x360' },
    fps: { type: 'string', default: '25' },
    // Soak the dist/ already built (when someone else's work in progress does not build).
    'skip-build': { type: 'boolean', default: false },
  },
});
const minutes = Number(values.minutes);
const tileCount = Number(values.tiles);
if (!(minutes > 0) || !(tileCount > 0)) throw new Error('--minutes and --tiles must be positive numbers');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const names = Array.from({ length: tileCount }, (_, i) => `t${String(i + 1).padStart(2, '0')}`);
const progress = (message: string) => process.stderr.write(`[console-soak] ${message}\n`);

async function writeConfig(dir: string, name: string, text: string): Promise<string> {
  await mkdir(join(dir, name), { recursive: true });
  const path = join(dir, name, 'relay.yaml');
  await writeFile(
    path,
    `data_dir: ./data\napi:\n  listen: 127.0.0.1:0\nwebrtc:\n  listen: 127.0.0.1:0\nlog:\n  level: error\nstorage:\n  emulator:\n    enabled: false\ndirectory:\n  emulator:\n    enabled: false\n${text}`,
  );
  return path;
}

async function startConsole(config: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['dist/main/headless.js', '--config', config], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`the console exited (${code}) before it listened`)));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /at (http:\/\/\S+)\//.exec(out);
      if (match) resolve(match[1]!);
    });
  });
  return { child, url };
}

async function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await exited;
}

interface TileRecord {
  stalls: number;
  reconnects: number;
  /** The longest stretch not live, ms. */
  longestOutMs: number;
  /** Every state the tile went through after it was first live, with its time (s since start). */
  path: string[];
  mode: string;
}

/**
 * Watches every tile's state badge in the page, ten times a second (a stall lasts a second at
 * least), and counts what happened after the tile was first live.
 */
async function installWatcher(page: Page, epoch: number): Promise<void> {
  await page.evaluate((epoch) => {
    type Record = {
      stalls: number;
      reconnects: number;
      longestOutMs: number;
      path: string[];
      mode: string;
      state?: string;
      outSince?: number;
    };
    const records: { [tile: string]: Record } = {};
    const late: string[] = [];
    const started = performance.now() - (Date.now() - epoch);
    (window as unknown as { soakRecords: typeof records; soakLate: string[] }).soakRecords = records;
    (window as unknown as { soakLate: string[] }).soakLate = late;
    let lastTick = performance.now();
    setInterval(() => {
      const now = performance.now();
      // A 100 ms timer that runs half a second late: the page's main thread had no CPU.
      if (now - lastTick > 600) late.push(`${((lastTick - started) / 1000).toFixed(1)}s +${((now - lastTick) / 1000).toFixed(1)}s`);
      lastTick = now;
      for (const tile of document.querySelectorAll('article[aria-label^="Camera "]')) {
        const name = tile.getAttribute('aria-label')!.replace(/^Camera /, '');
        const state =
          tile
            .querySelector('[aria-label^="state "]')
            ?.getAttribute('aria-label')
            ?.replace(/^state /, '') ?? 'none';
        const mode =
          tile
            .querySelector('[aria-label^="mode "]')
            ?.getAttribute('aria-label')
            ?.replace(/^mode /, '') ?? '-';
        const record = (records[name] ??= { stalls: 0, reconnects: 0, longestOutMs: 0, path: [], mode, state });
        record.mode = mode;
        if (state === record.state) continue;
        // Why it left live, in the tile's own words ("Reconnecting (no new picture for 2 s) in 1 s").
        const why = state === 'live' ? '' : ` (${tile.querySelector('[role="status"]')?.textContent ?? ''})`;
        record.path.push(`${((now - started) / 1000).toFixed(1)}s ${state}${why}`);
        if (state === 'stalled') record.stalls += 1;
        // Leaving live for anything but a stall that heals is a reconnect (counted once per outage).
        if (state !== 'live' && state !== 'stalled' && (record.state === 'live' || record.state === 'stalled')) record.reconnects += 1;
        if (state !== 'live' && record.outSince === undefined) record.outSince = now;
        if (state === 'live' && record.outSince !== undefined) {
          record.longestOutMs = Math.max(record.longestOutMs, now - record.outSince);
          record.outSince = undefined;
        }
        record.state = state;
      }
    }, 100);
  }, epoch);
}

async function main(): Promise<void> {
  if (!values['skip-build']) await buildAll({ quiet: true });
  const dir = await mkdtemp(join(tmpdir(), 'rc-bench-soak-'));
  const rtspPort = await freePort();
  const cameraRelay = await startConsole(await writeConfig(dir, 'camera', `rtsp:\n  listen: 127.0.0.1:${rtspPort}\nstreams:\n  cam:\n`));
  const tileStreams = names.map((name) => `  ${name}: rtsp://127.0.0.1:${rtspPort}/cam\n`).join('');
  const engine = await startConsole(await writeConfig(dir, 'console', `rtsp:\n  listen: 127.0.0.1:0\nstreams:\n${tileStreams}`));
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
      `testsrc2=size=${values.size}:rate=${values.fps}`,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-tune',
      'zerolatency',
      '-g',
      String(2 * Number(values.fps)),
      '-pix_fmt',
      'yuv420p',
      '-f',
      'rtsp',
      '-rtsp_transport',
      'tcp',
      `rtsp://127.0.0.1:${rtspPort}/cam`,
    ],
    { stdio: 'ignore' },
  );
  let cameraExited = false;
  camera.once('exit', () => (cameraExited = true));
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
  try {
    await sleep(2_000);
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    const requests = new Map<string, number>();
    page.on('request', (request) => {
      const match = /\/api\/(webrtc|ws|stream\.m3u8|stream\.mjpeg)\?src=([^&]+)/.exec(request.url());
      if (match) requests.set(decodeURIComponent(match[2]!), (requests.get(decodeURIComponent(match[2]!)) ?? 0) + 1);
    });
    const pageProblems: string[] = [];
    page.on('pageerror', (error) => pageProblems.push(error.message));
    await page.goto(`${engine.url}/#/live`);
    await page.getByRole('radiogroup', { name: 'Layout' }).getByText('4×4', { exact: true }).click();
    const live = page.getByLabel(/^state /).filter({ hasText: /^live$/ });
    const startedAt = performance.now();
    await live
      .nth(tileCount - 1)
      .waitFor({ timeout: 90_000 })
      .catch(() => undefined);
    const liveAtStart = await live.count();
    progress(
      `${liveAtStart} of ${tileCount} tiles live after ${((performance.now() - startedAt) / 1000).toFixed(1)} s; soaking ${minutes} min`,
    );
    const requestsAtStart = new Map(requests);
    const epoch = Date.now();
    const since = () => `${((Date.now() - epoch) / 1000).toFixed(1)}s`;
    await installWatcher(page, epoch);
    const loadAtStart = loadavg()[0]!;

    // The relay's side, each second: how often a tile's stream had no consumer (the drop the
    // issue saw), and whether bytes still came in from the camera (summed over the tiles' sources).
    const noConsumer = new Map<string, number>();
    const upstreamSilent: string[] = [];
    let lastBytes = 0;
    let silentSince: string | undefined;
    const end = performance.now() + minutes * 60_000;
    let samples = 0;
    while (performance.now() < end) {
      await sleep(Math.min(1_000, end - performance.now()));
      const streams = (await (await fetch(`${engine.url}/api/streams`)).json()) as Record<
        string,
        { consumers?: unknown[] | null; producers?: Array<{ bytes_recv?: number }> | null }
      >;
      samples += 1;
      for (const name of names) if ((streams[name]?.consumers?.length ?? 0) === 0) noConsumer.set(name, (noConsumer.get(name) ?? 0) + 1);
      const bytes = names.reduce((sum, name) => sum + (streams[name]?.producers ?? []).reduce((s, p) => s + (p.bytes_recv ?? 0), 0), 0);
      if (bytes <= lastBytes && silentSince === undefined) silentSince = since();
      if (bytes > lastBytes && silentSince !== undefined) {
        upstreamSilent.push(`${silentSince}–${since()}`);
        silentSince = undefined;
      }
      lastBytes = bytes;
      const elapsed = minutes * 60 - (end - performance.now()) / 1000;
      if (samples % 60 === 0) progress(`${elapsed.toFixed(0)} s: ${await live.count()} of ${tileCount} live`);
    }
    const records = (await page.evaluate(() => (window as unknown as { soakRecords: Record<string, TileRecord> }).soakRecords)) as Record<
      string,
      TileRecord
    >;
    const late = await page.evaluate(() => (window as unknown as { soakLate: string[] }).soakLate);
    const liveAtEnd = await live.count();
    const loadAtEnd = loadavg()[0]!;

    console.log(
      `\nConsole tiles soak: ${tileCount} tiles of one ${values.size} H.264 camera at ${values.fps} fps, ${minutes} min, automatic mode (${process.platform}, ${cpus().length} cores, Chromium without GPU)`,
    );
    console.log(
      `tiles live at start ${liveAtStart}/${tileCount}, at end ${liveAtEnd}/${tileCount}; relay sampled ${samples} times (once a second)${cameraExited ? '; THE CAMERA (ffmpeg) EXITED during the run' : ''}`,
    );
    console.log(
      `machine load (1 min average) ${loadAtStart.toFixed(1)} at start, ${loadAtEnd.toFixed(1)} at end, on ${cpus().length} cores\n`,
    );
    console.log('tile  mode     stalls  reconnects  longest not live  media requests after start  seconds without a relay consumer');
    let stalls = 0;
    let reconnects = 0;
    for (const name of names) {
      const record = records[name] ?? { stalls: 0, reconnects: 0, longestOutMs: 0, path: [], mode: '-' };
      const again = (requests.get(name) ?? 0) - (requestsAtStart.get(name) ?? 0);
      stalls += record.stalls;
      reconnects += record.reconnects;
      console.log(
        `${name.padEnd(5)} ${record.mode.padEnd(8)} ${String(record.stalls).padStart(6)} ${String(record.reconnects).padStart(11)} ${`${(record.longestOutMs / 1000).toFixed(1)} s`.padStart(17)} ${String(again).padStart(27)} ${String(noConsumer.get(name) ?? 0).padStart(34)}`,
      );
    }
    console.log(
      `\ntotal: ${stalls} stalls, ${reconnects} reconnects (goal 0 and 0)${stalls + reconnects === 0 && liveAtStart === tileCount ? ': met' : ': NOT met'}`,
    );
    for (const name of names) {
      const path = records[name]?.path ?? [];
      if (path.length > 0) console.log(`  ${name}: ${path.slice(0, 8).join(' → ')}${path.length > 8 ? ` … (${path.length} changes)` : ''}`);
    }
    console.log(
      `\npage timers late by more than 0.5 s (renderer without CPU): ${late.length === 0 ? 'never' : late.slice(0, 20).join(', ')}`,
    );
    console.log(
      `seconds without bytes from the camera at the relay: ${upstreamSilent.length === 0 ? 'none' : upstreamSilent.slice(0, 20).join(', ')}`,
    );
    if (pageProblems.length > 0) console.log(`page errors: ${pageProblems.slice(0, 5).join(' | ')}`);
    await page.close();
  } finally {
    await browser.close();
    await stopProcess(camera, 'SIGKILL');
    await stopProcess(engine.child);
    await stopProcess(cameraRelay.child);
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
