// How fast the console is there, in two parts, each next to a peer measured in the same run:
//  1. start: with a fresh data_dir each round (so the first start's work is in it: the
//     config file, SQLite files, sealed secrets, the emulators' demo accounts), from spawning
//     the headless console as `npm start` starts it (its V8 flags, the default config with every
//     port free) to its page answering 200 with the console's HTML, and to `/api` answering 200;
//     next to a bare Node HTTP server serving the same page (Node's own floor). Answers other
//     than 200 before that are counted (a 404 while the engine starts is a bug).
//  2. open: with the engine running and a 720p camera stream already pulled, from Chromium's
//     navigation start to the live view's first tile showing a picture and then a different one
//     (requestVideoFrameCallback), with where the time went; next to a bare page with one
//     `<video src=stream.mp4>` of the same stream on the same engine.
// Rounds alternate the console and its peer; medians are printed.
//
//   npm run bench:start [-- --rounds 5 --only start|open]
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { buildAll } from '../scripts/build.mjs';
import { ENGINE_V8_FLAGS, engineEnv } from '../scripts/engine-flags.mjs';
import { DEFAULT_CONFIG_TEXT } from '../src-main/platform/config/default-config';
import { freePort } from '../src-main/test-support/free-port';
import { startBenchEngine } from './lib/engine';
import { median, medianPhases, tilePhases, type PageTimings, type Phase } from './lib/start-phases';
import { startTappedCamera } from './lib/tapped-camera';
import { installTileTimeline, type TileTimeline } from './lib/tile-timeline';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, only: { type: 'string' } } });
const rounds = Number(values.rounds);
const progress = (message: string) => process.stderr.write(`[start] ${message}\n`);
const load = () => loadavg()[0]!.toFixed(2);

interface StartRound {
  pageMs: number;
  apiMs: number;
  /** Answers other than 200 before the first 200 (page and API together). */
  refused: number;
}

/**
 * Asks `paths` every 5 ms from `startedAt` on until each answers 200 (the page with `mustHold`
 * in its body); resolves with when each did, in ms since `startedAt`, and how many answers
 * were something else.
 */
async function pollUntilServed(
  base: string,
  paths: string[],
  mustHold: string,
  startedAt: number,
): Promise<{ at: Map<string, number>; refused: number }> {
  const at = new Map<string, number>();
  let refused = 0;
  const deadline = startedAt + 30_000;
  await Promise.all(
    paths.map(async (path) => {
      while (!at.has(path) && performance.now() < deadline) {
        const answer = await fetch(`${base}${path}`).catch(() => undefined);
        if (answer) {
          const body = await answer.text();
          if (answer.status === 200 && (path !== '/' || body.includes(mustHold))) at.set(path, performance.now() - startedAt);
          else refused += 1;
        }
        if (!at.has(path)) await new Promise((r) => setTimeout(r, 5));
      }
      if (!at.has(path)) throw new Error(`${path} never answered 200 within 30 s`);
    }),
  );
  return { at, refused };
}

/** The default config with every port free: the work of a first start, without the fixed ports other runs hold. */
const consoleConfig = (apiPort: number) =>
  `data_dir: ./data\n${DEFAULT_CONFIG_TEXT.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:0')
    .replace('listen: 127.0.0.1:0\n  # username: admin', `listen: 127.0.0.1:${apiPort}\n  # username: admin`)
    .replace('level: info', 'level: error')}`;

/** A bare Node server of the same page: how fast Node itself is up and answering. */
const PEER_SERVER = `
const page = require('node:fs').readFileSync(process.argv[1], 'utf8');
require('node:http').createServer((req, res) => { res.writeHead(200, { 'Content-Type': 'text/html' }); res.end(page); }).listen(Number(process.argv[2]), '127.0.0.1');
`;

async function startRound(who: 'console' | 'peer'): Promise<StartRound> {
  const dir = await mkdtemp(join(tmpdir(), 'rc-bench-start-'));
  const port = await freePort();
  const config = join(dir, 'relay.yaml');
  await writeFile(config, consoleConfig(port));
  const startedAt = performance.now();
  const child =
    who === 'console'
      ? spawn(process.execPath, [...ENGINE_V8_FLAGS, 'dist/main/headless.js', '--config', config], { stdio: 'ignore', env: engineEnv() })
      : spawn(process.execPath, ['-e', PEER_SERVER, 'dist/renderer/index.html', String(port)], { stdio: 'ignore' });
  try {
    const served = await pollUntilServed(
      `http://127.0.0.1:${port}`,
      who === 'console' ? ['/', '/api'] : ['/'],
      '<div id="root">',
      startedAt,
    );
    return { pageMs: served.at.get('/')!, apiMs: served.at.get('/api') ?? Number.NaN, refused: served.refused };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  }
}

interface OpenRound {
  phases: Phase[];
  /** The contract calls the page made before its first picture: `name sent→answered`. */
  calls: string[];
  firstMs: number | null;
  movingMs: number | null;
}

/** Opens `url` in a fresh browser context (nothing cached) and waits for a picture that moves. */
async function openRound(browser: Browser, url: string, barePage?: string): Promise<OpenRound> {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const page = await context.newPage();
  await page.addInitScript(installTileTimeline);
  if (barePage !== undefined) await page.route(url, (route) => route.fulfill({ contentType: 'text/html', body: barePage }));
  await page.goto(url);
  await page
    .waitForFunction(() => (window as unknown as { tileTimeline: TileTimeline }).tileTimeline.secondFrameAt !== null, undefined, {
      timeout: 30_000,
      polling: 20,
    })
    .catch(() => progress(`no moving picture within 30 s at ${url}`));
  const seen = await page.evaluate(() => {
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const resources = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => ({
      name: r.name,
      responseEnd: r.responseEnd,
    }));
    const timings: PageTimings = { htmlAt: navigation.responseEnd, resources };
    return { timeline: (window as unknown as { tileTimeline: TileTimeline }).tileTimeline, timings };
  });
  await context.close();
  const firstAt = seen.timeline.firstFrameAt ?? Infinity;
  const calls = Object.values(seen.timeline.calls)
    .filter((call) => call.sentAt < firstAt)
    .map((call) => `${call.name} ${ms(call.sentAt)}→${ms(call.answeredAt)}`);
  return {
    phases: tilePhases(seen.timeline, seen.timings),
    calls,
    firstMs: seen.timeline.firstFrameAt,
    movingMs: seen.timeline.secondFrameAt,
  };
}

const ms = (value: number | null | undefined) => (value === null || value === undefined || Number.isNaN(value) ? '-' : value.toFixed(0));
const medianOf = (values: Array<number | null>) => median(values.filter((v): v is number => v !== null));

async function measureStart(): Promise<void> {
  const results = { console: [] as StartRound[], peer: [] as StartRound[] };
  for (let round = 0; round < rounds; round += 1) {
    for (const who of round % 2 === 0 ? (['console', 'peer'] as const) : (['peer', 'console'] as const)) {
      const result = await startRound(who);
      results[who].push(result);
      progress(`start round ${round + 1}, ${who}: page ${ms(result.pageMs)} ms, /api ${ms(result.apiMs)} ms, ${result.refused} refused`);
    }
  }
  console.log(`\n1. start, fresh data_dir each round (median of ${rounds}; ms from spawn):`);
  console.log('                                         page 200   /api 200   answers not 200 before (all rounds)');
  for (const [label, list] of [
    ['console (headless, as npm start)', results.console],
    ['peer: bare Node server of the page', results.peer],
  ] as const) {
    const refused = list.reduce((sum, r) => sum + r.refused, 0);
    console.log(
      `  ${label.padEnd(38)} ${ms(median(list.map((r) => r.pageMs))).padStart(8)} ${ms(median(list.map((r) => r.apiMs))).padStart(10)}   ${refused}`,
    );
  }
}

async function measureOpen(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'rc-bench-open-'));
  const camera = await startTappedCamera(dir);
  const engine = await startBenchEngine();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'],
  });
  try {
    await camera.publishTo(Number(new URL(engine.rtspUrl('cam').replace('rtsp:', 'http:')).port), 'cam');
    // The stream is pulled (and its GOP cached) before the console opens, as on a running relay.
    const pulled = (await fetch(`${engine.api}/api/stream.mp4?src=cam`)).body!.getReader();
    await pulled.read();
    const bare = `<!doctype html><body style="margin:0"><video muted autoplay playsinline src="/api/stream.mp4?src=cam" width="640"></video>`;
    const results = { console: [] as OpenRound[], peer: [] as OpenRound[] };
    for (let round = 0; round < rounds; round += 1) {
      for (const who of round % 2 === 0 ? (['console', 'peer'] as const) : (['peer', 'console'] as const)) {
        const result =
          who === 'console' ? await openRound(browser, `${engine.api}/#/live`) : await openRound(browser, `${engine.api}/bare.html`, bare);
        results[who].push(result);
        progress(`open round ${round + 1}, ${who}: first picture ${ms(result.firstMs)} ms, moving ${ms(result.movingMs)} ms`);
      }
    }
    await pulled.cancel();
    console.log(`\n2. open, engine running and the camera pulled (median of ${rounds}; ms from Chromium's navigation start):`);
    console.log('                                         first picture   moving');
    for (const [label, list] of [
      ['console #/live, first tile', results.console],
      ['peer: bare <video src=stream.mp4>', results.peer],
    ] as const) {
      console.log(
        `  ${label.padEnd(38)} ${ms(medianOf(list.map((r) => r.firstMs))).padStart(13)} ${ms(medianOf(list.map((r) => r.movingMs))).padStart(8)}`,
      );
    }
    console.log("  where the console's time went (median ms since navigation start of each step):");
    for (const [label, at] of medianPhases(results.console.map((r) => r.phases)))
      console.log(`    ${label.padEnd(44)} ${ms(at).padStart(6)}`);
    console.log(
      `  contract calls before the first picture, last round (sent→answered): ${results.console.at(-1)?.calls.join(', ') ?? '-'}`,
    );
  } finally {
    await browser.close();
    await camera.close();
    await engine.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  await buildAll({ quiet: true });
  const html = await readFile('dist/renderer/index.html', 'utf8');
  if (!html.includes('<div id="root">')) throw new Error('dist/renderer/index.html holds no console root');
  const loadAtStart = load();
  console.log(`Console start and first tile (${process.platform}, ${cpus().length} cores, Chromium without GPU)`);
  if (values.only !== 'open') await measureStart();
  if (values.only !== 'start') await measureOpen();
  console.log(`\nload average (1 min): ${loadAtStart} at the start, ${load()} at the end`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
