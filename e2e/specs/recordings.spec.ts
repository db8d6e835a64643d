import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { expectAccessible } from '../fixtures/accessibility';
import { startHeadlessConsole, type HeadlessConsole } from '../fixtures/headless-console';
import { expect, test } from '../fixtures/test';
import { ConsolePage } from '../pages/console-page';
import { RecordingsPage } from '../pages/recordings-page';
import { TransfersPage } from '../pages/transfers-page';

// A camera (ffmpeg's test picture through the relay, 2 s GOPs) recorded always in 2 s segments
// into the embedded storage emulator; the user finds it in Recordings and plays it back.
const RECORDED = [
  'streams:',
  '  cam: ffmpeg:virtual?video=testsrc&size=320x240&fps=25#video=h264',
  'recordings:',
  '  cam:',
  '    bucket: recordings',
  '    segment: 2s',
  '    schedule: always',
  '',
].join('\n');

let server: HeadlessConsole;

test.beforeAll(async () => {
  server = await startHeadlessConsole(RECORDED);
});

test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

/** The segments the API lists (a tool's request: no browser, no other site); none before the first upload. */
async function listed(): Promise<Array<{ start: string; end: string; bytes: number }>> {
  const answer = await fetch(`${server.url}/api/recordings?src=cam`);
  // Until the first upload creates it, the bucket is not there (404 from the API).
  if (answer.status === 404) return [];
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { segments: Array<{ start: string; end: string; bytes: number }> }).segments;
}

const clock = (ms: number) => {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
};

test('a recorded camera: spans on the timeline, played from a click at 1× and 2×, a range exported as an MP4 file and into a bucket', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const shell = new ConsolePage(page, server.url);
  const recordings = new RecordingsPage(page);
  await shell.open('live');
  await shell.navLink('recordings').click();
  await expect(shell.heading()).toHaveText('Recordings');
  await recordings.camera('cam').click();
  await expect(page).toHaveURL(/#\/recordings\/cam$/);
  await expect(recordings.status()).toContainText('Recording', { timeout: 20_000 });

  // About 8 s in the bucket, then the day's timeline shows them as one span.
  await expect.poll(async () => (await listed()).length, { timeout: 40_000, message: 'four segments uploaded' }).toBeGreaterThanOrEqual(4);
  await expect(recordings.spans()).toHaveCount(1);
  await recordings.zoom('10 min').click();
  // The span grows as segments reach the bucket: wait until it is wide enough to click into.
  await expect.poll(async () => (await recordings.spans().first().boundingBox())?.width ?? 0, { timeout: 20_000 }).toBeGreaterThan(8);
  const span = await recordings.spans().first().boundingBox();
  expect(span!.width).toBeGreaterThan(8);

  // Click a third into the span: the video plays from there, 320x240, time moving.
  await page.mouse.click(span!.x + span!.width / 3, span!.y + span!.height / 2);
  await expect
    .poll(async () => (await recordings.playback()).size, { timeout: 20_000, message: 'the video shows its picture' })
    .toBe('320x240');
  const first = await recordings.playback();
  expect(first).toMatchObject({ rate: 1, error: null });
  // The click seeks a third into the playlist's timeline, then the time moves on from there.
  expect(first.time).toBeGreaterThan(1);
  await expect.poll(async () => (await recordings.playback()).time).toBeGreaterThan(first.time + 0.5);
  await expect(page.getByTestId('playing-at')).toHaveText(/^Playing \d\d:\d\d:\d\d$/);

  await recordings.speed('2×').click();
  expect((await recordings.playback()).rate).toBe(2);

  // Export four seconds from a second after the first segment's start, typed as clock times.
  const start = Math.ceil((Date.parse((await listed())[0]!.start) + 1000) / 1000) * 1000;
  await recordings.exportField('From').fill(clock(start));
  await recordings.exportField('To').fill(clock(start + 4000));
  await expect(page.getByTestId('export-range')).toBeVisible();
  const downloading = page.waitForEvent('download');
  await recordings.downloadLink().click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^cam-.*\.mp4$/);
  const file = await download.path();
  const bytes = await readFile(file);
  expect(bytes.length).toBeGreaterThan(1000);
  expect(bytes.subarray(4, 8).toString()).toBe('ftyp');
  // Cut at keyframes (every 2 s): from the last at or before the start to the first at or after the end.
  const { stdout } = await promisify(execFile)('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
  const duration = Number(stdout.trim());
  expect(duration).toBeGreaterThanOrEqual(3.9);
  expect(duration).toBeLessThanOrEqual(8.2);

  // The same range into a bucket as one object: an upload of the transfer queue, done and checked there.
  await recordings.exportField('Bucket').click();
  await page.getByRole('option', { name: 'recordings', exact: true }).click();
  const key = await recordings.exportField('Object key').inputValue();
  expect(key).toMatch(/^exports\/cam-.*Z\.mp4$/);
  await page.getByRole('button', { name: 'Export to bucket' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Export queued' })).toBeVisible();
  await expectAccessible(page, 'the recordings of a camera, an export queued');
  await page.getByRole('link', { name: 'Follow it under Transfers' }).click();
  await new TransfersPage(page).expectState(key.slice('exports/'.length), 'done');
  await page.goBack();
  await expect(recordings.timeline()).toBeVisible();

  // Keys: Home moves the cursor to the view's start (nothing recorded there), Enter plays the span from its start.
  await recordings.timeline().focus();
  await page.keyboard.press('Home');
  await expect(recordings.timeline()).toHaveAttribute('aria-valuetext', /, not recorded$/);
  await page.keyboard.press('Enter');
  await expect(recordings.timeline()).toHaveAttribute('aria-valuetext', /, recorded$/);

  await expectAccessible(page, 'the recordings of a camera');
  await recordings.zoom('10 min').click();
  await shell.themeOption('Dark').click();
  await page.screenshot({ path: test.info().outputPath('recordings-dark.png'), fullPage: true });
  await expectAccessible(page, 'the recordings of a camera, dark');
  await shell.themeOption('Light').click();
  await page.screenshot({ path: test.info().outputPath('recordings-light.png'), fullPage: true });
});

test('with nothing recorded the section says how to turn recording on and links to the config', async ({ page, consoleServer }) => {
  await page.goto(`${consoleServer.url}/#/recordings`);
  const empty = page.getByTestId('recordings-empty');
  await expect(empty).toContainText('No camera is recorded yet');
  await expect(empty.getByLabel('An example recordings section')).toContainText('schedule: always');
  await expectAccessible(page, 'recordings, none configured');
  await empty.getByRole('link', { name: 'Open the config editor' }).click();
  await expect(page).toHaveURL(/#\/config$/);
});
