// Calendar sync as the user sees it: `npm run bench:calendar-sync-console [-- --events 10000 --changes 10 --runs 5]`
// The built headless console in Chromium on a view of N events in its directory emulator: per
// run, M events change through Graph, then "Sync now" is pressed; measured is the time until the
// Calendar section shows that round done, next to the round's own duration in main.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '10000' },
    changes: { type: 'string', default: '10' },
    runs: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '16' },
  },
  allowPositionals: true,
});
const eventCount = Number(values.events);
const changeCount = Number(values.changes);
const runs = Number(values.runs);
const concurrency = Number(values.concurrency);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dir = await mkdtemp(join(tmpdir(), 'relay-console-bench-'));
const config = join(dir, 'relay-console.yaml');
await writeFile(
  config,
  'data_dir: ./data\napi:\n  listen: 127.0.0.1:0\nlog:\n  level: warn\nrtsp:\n  listen: 127.0.0.1:0\nwebrtc:\n  listen: 127.0.0.1:0\nstorage:\n  emulator:\n    enabled: false\ndirectory:\n  emulator:\n    listen: 127.0.0.1:0\n    demo_data: false\n',
);
const child = spawn(process.execPath, ['dist/main/headless.js', '--config', config], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise<string>((resolve, reject) => {
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    const match = /at (http:\/\/[^\s/]+)\//.exec(output);
    if (match?.[1]) resolve(match[1]);
  });
  child.once('exit', (code) => reject(new Error(`the console exited with ${code}`)));
});
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });

try {
  const demo = JSON.parse(await readFile(join(dir, 'data', 'directory', 'demo-account.json'), 'utf8')) as {
    url: string;
    tenant: string;
    client_id: string;
    client_secret: string;
    user: { id: string };
  };
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: demo.client_id,
    client_secret: demo.client_secret,
    scope: 'https://graph.microsoft.com/.default',
  });
  const token = (
    (await (await fetch(`${demo.url}/${demo.tenant}/oauth2/v2.0/token`, { method: 'POST', body: form })).json()) as { access_token: string }
  ).access_token;
  const graph = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${demo.url}/v1.0/users/${demo.user.id}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status >= 300) throw new Error(`${method} ${path}: HTTP ${response.status}`);
    return (await response.json()) as { id: string };
  };
  const at = (ms: number) => ({ dateTime: new Date(ms).toISOString().slice(0, 19), timeZone: 'UTC' });
  // Events over the next 60 days, inside the console's default window (30 days back, 90 ahead).
  const first = Math.ceil(Date.now() / 86_400_000) * 86_400_000;
  const ids: string[] = [];
  let next = 0;
  let start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < eventCount) {
        const i = next++;
        const begins = first + Math.floor((i / eventCount) * 60 * 86_400_000);
        ids[i] = (await graph('POST', '/events', { subject: `Event ${i}`, start: at(begins), end: at(begins + 1_800_000) })).id;
      }
    }),
  );
  console.log(`created ${eventCount.toLocaleString('en-US')} events through Graph in ${((performance.now() - start) / 1000).toFixed(1)} s`);

  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${url}/#/calendar`);
  start = performance.now();
  await page.getByRole('button', { name: 'Start syncing' }).click();
  await page
    .getByTestId('events-stored')
    .filter({ hasText: `${eventCount.toLocaleString('en-US')} events` })
    .waitFor({ timeout: 300_000 });
  console.log(`first full synchronisation shown done after ${((performance.now() - start) / 1000).toFixed(1)} s`);

  const seen: number[] = [];
  const inMain: number[] = [];
  for (let run = 0; run < runs; run++) {
    for (let c = 0; c < changeCount; c++)
      await graph('PATCH', `/events/${ids[(run * changeCount + c) % ids.length]}`, { subject: `Event changed in run ${run}` });
    const rounds = Number(await page.getByTestId('sync-status').getAttribute('data-rounds'));
    start = performance.now();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.locator(`[data-testid="sync-status"][data-rounds="${rounds + 1}"][data-state="idle"]`).waitFor({ timeout: 60_000 });
    seen.push(performance.now() - start);
    const text = (await page.getByTestId('last-round').textContent()) ?? '';
    inMain.push(Number(/, (\d+) ms:/.exec(text)?.[1] ?? NaN));
    if (!text.includes(`${changeCount} updated`))
      throw new Error(`run ${run}: the round shown is not the one of ${changeCount} changes: ${text}`);
  }
  console.log(
    `\n| ${eventCount.toLocaleString('en-US')}-event view, round of ${changeCount} changes (median of ${runs}) | ms |\n|---|---|`,
  );
  console.log(`| "Sync now" pressed → the Calendar section shows the round done | ${median(seen).toFixed(0)} |`);
  console.log(`| the round itself, measured in main (peer) | ${median(inMain).toFixed(0)} |`);
} finally {
  await browser.close();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  await rm(dir, { recursive: true, force: true });
}
