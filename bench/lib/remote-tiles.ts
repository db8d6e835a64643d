import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { descendants, pssMiB, rssMiB, treeCpuSeconds } from '../process-stats';
import type { PLAYER_MODES } from '../../src-shared/contract/preferences';
import type { ConsoleClient } from './console-client';

export interface TilesFigures {
  /** From opening the live view to every tile live; NaN when they were not within two minutes. */
  allLiveMs: number;
  /** Where the page's screenshot is when not every tile went live. */
  screenshot?: string;
  /** Tiles live at the start and the end of the window. */
  liveBefore: number;
  liveAfter: number;
  consoleCpuPercent: number;
  consoleRssMax: number;
  chromiumCpuPercent: number;
  /** Chromium's processes' proportional memory summed (shared pages counted once), MiB, largest sample. */
  chromiumPssMax: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

const treePss = (pid: number) =>
  [pid, ...descendants(pid)].reduce((sum, p) => {
    try {
      return sum + pssMiB(p);
    } catch {
      return sum;
    }
  }, 0);

/** Headless Chromium without a GPU, as bench:console-tiles runs it, and its browser process. */
async function launchChromium(): Promise<{ browser: Browser; pid: number }> {
  const before = new Set(descendants(process.pid));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required', '--disable-background-timer-throttling'],
  });
  const pid = descendants(process.pid).find((p) => !before.has(p) && /chrom/i.test(commandLine(p)));
  if (pid === undefined) throw new Error('Chromium started but its process was not found');
  return { browser, pid };
}

/**
 * The console's live view in Chromium with `ids` (remote tiles, `relay://<relay>/<stream>`) first
 * in a 4×4 grid, so they are the 16 on screen (tiles off screen play nothing): once all of them
 * are live, the console's and Chromium's CPU (% of one core, the process and its children) and
 * memory over `seconds`.
 */
export async function measureRemoteTiles(
  client: ConsoleClient,
  consoleApi: string,
  consolePid: number,
  ids: readonly string[],
  seconds: number,
  /** A playback mode forced on every tile, or undefined for the console's own choice. */
  mode: (typeof PLAYER_MODES)[number] | undefined,
): Promise<TilesFigures> {
  const saved = await client.call('preferences', 'setLiveView', { layout: '4x4', order: ids });
  if (!saved.ok) throw new Error(`the console refused the tile order: ${JSON.stringify(saved)}`);
  for (const stream of ids) {
    const forced = await client.call('preferences', 'setTileMode', { stream, mode: mode ?? null });
    if (!forced.ok) throw new Error(`the console refused the mode of ${stream}: ${JSON.stringify(forced)}`);
  }
  const { browser, pid } = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    const opened = performance.now();
    await page.goto(`${consoleApi}/#/live`);
    const live = page.getByLabel(/^state /).filter({ hasText: /^live$/ });
    // A machine too small or too loaded may not get them all live: measure after two minutes
    // either way, say how many played, and keep a picture of the page.
    const allLive = await live
      .nth(ids.length - 1)
      .waitFor({ timeout: 120_000 })
      .then(
        () => true,
        () => false,
      );
    const allLiveMs = allLive ? performance.now() - opened : NaN;
    const screenshot = join(tmpdir(), 'bench-relays-tiles.png');
    if (!allLive) await page.screenshot({ path: screenshot });
    // Settled: the players past their first seconds.
    await sleep(3_000);
    const liveBefore = await live.count();
    const console0 = treeCpuSeconds(consolePid);
    const chromium0 = treeCpuSeconds(pid);
    const started = performance.now();
    let consoleRssMax = rssMiB(consolePid);
    let chromiumPssMax = treePss(pid);
    while (performance.now() - started < seconds * 1000) {
      await sleep(1_000);
      consoleRssMax = Math.max(consoleRssMax, rssMiB(consolePid));
      chromiumPssMax = Math.max(chromiumPssMax, treePss(pid));
    }
    const elapsed = (performance.now() - started) / 1000;
    return {
      allLiveMs,
      ...(allLive ? {} : { screenshot }),
      liveBefore,
      liveAfter: await live.count(),
      consoleCpuPercent: ((treeCpuSeconds(consolePid) - console0) / elapsed) * 100,
      consoleRssMax,
      chromiumCpuPercent: ((treeCpuSeconds(pid) - chromium0) / elapsed) * 100,
      chromiumPssMax,
    };
  } finally {
    await browser.close();
  }
}
