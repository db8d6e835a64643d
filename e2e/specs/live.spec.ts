import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator } from '@playwright/test';
import { startHeadlessConsole } from '../fixtures/headless-console';
import { expectAccessible } from '../fixtures/accessibility';
import { test, expect } from '../fixtures/test';
import { LivePage } from '../pages/live-page';

const CAMERA = 'ffmpeg:virtual?video=testsrc&size=640x360&fps=25#video=h264';

async function addStream(url: string, name: string, source = CAMERA): Promise<void> {
  const response = await fetch(`${url}/api/streams?name=${name}&src=${encodeURIComponent(source)}`, { method: 'PUT' });
  expect(response.status, `PUT /api/streams ${name}`).toBe(200);
}

/** Pixels move: a later screenshot of the picture differs from the first one. */
async function expectMoving(picture: Locator): Promise<void> {
  const first = await picture.screenshot();
  await expect.poll(async () => !(await picture.screenshot()).equals(first), { timeout: 8_000, message: 'the picture changes between screenshots' }).toBe(true);
}

test.describe('live view', () => {
  test('plays moving video in each mode, forced in turn from the tile menu', async ({ page, consoleServer }, testInfo) => {
    await addStream(consoleServer.url, 'a-live-modes');
    const live = new LivePage(page, consoleServer.url);
    await live.open();
    const stream = 'a-live-modes';
    for (const mode of ['WebRTC', 'MSE', 'HLS', 'MJPEG'] as const) {
      await live.forceMode(stream, mode);
      await expect(live.mode(stream)).toHaveText(mode);
      await expect(live.state(stream)).toHaveText('live', { timeout: 30_000 });
      await expectMoving(live.picture(stream));
      await expect(live.tile(stream)).toContainText(/640×360/);
      await expect(live.tile(stream)).toContainText(/\d+ fps/);
      await page.screenshot({ path: testInfo.outputPath(`live-${mode.toLowerCase()}.png`) });
    }
  });

  test('falls back to the next mode when WebRTC is blocked, and says why', async ({ page, consoleServer, pageErrors }) => {
    await addStream(consoleServer.url, 'a-live-fallback');
    await page.route('**/api/webrtc?**', (route) => route.fulfill({ status: 503, contentType: 'text/plain', body: 'blocked by the test' }));
    const live = new LivePage(page, consoleServer.url);
    await live.open();
    const stream = 'a-live-fallback';
    await expect(live.state(stream)).toHaveText('live', { timeout: 30_000 });
    await expect(live.mode(stream)).toHaveText('MSE');
    await expect(live.fallbackReason(stream)).toHaveAttribute('aria-label', 'fell back because WebRTC failed: HTTP 503: blocked by the test');
    await expectMoving(live.picture(stream));
    // The blocked endpoint is this test's doing: its 503 is expected, nothing else is.
    const unexpected = pageErrors.filter((problem) => !/api\/webrtc|503/.test(problem));
    pageErrors.splice(0, pageErrors.length, ...unexpected);
  });

  test('a pop-out window shows the one camera and plays', async ({ page, consoleServer }, testInfo) => {
    await addStream(consoleServer.url, 'a-live-popout');
    const live = new LivePage(page, consoleServer.url);
    await live.open();
    const [popup] = await Promise.all([page.waitForEvent('popup'), live.action('a-live-popout', 'Pop out').click()]);
    await expect(popup).toHaveURL(/#\/camera\/a-live-popout$/);
    await expect(popup).toHaveTitle('a-live-popout · Relay Console');
    await expect(popup.getByRole('navigation')).toHaveCount(0);
    await expect(popup.getByLabel(/^state /)).toHaveText('live', { timeout: 30_000 });
    await expectMoving(popup.locator('video:visible, img:visible'));
    await popup.screenshot({ path: testInfo.outputPath('popout.png') });
    await popup.close();
  });

  test('snapshot downloads a JPEG of the camera; keyboard shortcuts and the ? overlay', async ({ page, consoleServer }) => {
    await addStream(consoleServer.url, 'a-live-keys');
    const live = new LivePage(page, consoleServer.url);
    await live.open();
    const stream = 'a-live-keys';
    await expect(live.state(stream)).toHaveText('live', { timeout: 30_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), live.action(stream, 'Snapshot').click()]);
    expect(download.suggestedFilename()).toBe(`${stream}.jpeg`);
    const jpeg = await readFile((await download.path())!);
    expect([...jpeg.subarray(0, 2)]).toEqual([0xff, 0xd8]);

    await live.tile(stream).focus();
    await page.keyboard.press('m');
    await expect(live.action(stream, 'Mute')).toHaveAttribute('aria-pressed', 'true');
    expect(await live.tile(stream).locator('video').evaluate((v: HTMLVideoElement) => v.muted)).toBe(false);
    await page.keyboard.press('m');
    await expect(live.action(stream, 'Unmute')).toBeVisible();
    await page.keyboard.press('?');
    const overlay = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(overlay).toContainText('Next tile');
    await expect(overlay).toContainText('Download a snapshot of the selected tile');
    await page.keyboard.press('Escape');
    await expect(overlay).toBeHidden();
    const names = await live.tileNames();
    const index = names.indexOf(stream);
    await page.keyboard.press('n');
    await expect(live.tile(names[(index + 1) % names.length]!)).toBeFocused();
  });

  test('the layout and the order dragged survive a restart of the engine; axe finds no serious problem', async ({ page }, testInfo) => {
    const own = await startHeadlessConsole();
    try {
      for (const name of ['cam-a', 'cam-b', 'cam-c']) await addStream(own.url, name);
      const live = new LivePage(page, own.url);
      await live.open();
      await expect.poll(() => live.tileNames()).toEqual(['cam-a', 'cam-b', 'cam-c']);
      await live.layout('3×3').click();
      // Three columns: the three cameras side by side.
      await expect.poll(async () => (await live.tile('cam-c').boundingBox())?.y === (await live.tile('cam-a').boundingBox())?.y).toBe(true);
      // Drag cam-c by its handle onto cam-a's place.
      const handle = live.action('cam-c', 'Move');
      await handle.scrollIntoViewIfNeeded();
      const from = (await handle.boundingBox())!;
      const to = (await live.action('cam-a', 'Move').boundingBox())!;
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x - 20, from.y, { steps: 5 });
      await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 20 });
      await page.mouse.up();
      await expect.poll(() => live.tileNames()).toEqual(['cam-c', 'cam-a', 'cam-b']);
      const stored = async () => JSON.parse(await readFile(join(own.dataDir, 'console-preferences.json'), 'utf8')) as { live: unknown };
      await expect.poll(async () => (await stored()).live).toEqual({ layout: '3x3', order: ['cam-c', 'cam-a', 'cam-b'] });

      await expectAccessible(page, 'the live grid', 'main');
      await page.screenshot({ path: testInfo.outputPath('live-grid.png') });

      // Restart the engine: the page comes back on the new address with the same grid.
      const newUrl = own.restarted();
      await page.goto('about:blank');
      expect((await fetch(`${own.url}/api/restart`, { method: 'POST' })).status).toBe(200);
      const again = new LivePage(page, await newUrl);
      await again.open();
      await expect.poll(() => again.tileNames()).toEqual(['cam-c', 'cam-a', 'cam-b']);
      await expect(again.layoutOption('3×3')).toBeChecked();
      await page.close();
    } finally {
      await own.stop();
    }
  });

  test('an empty console guides to a first camera: the demo stream is one click away', async ({ page }, testInfo) => {
    const fresh = await startHeadlessConsole();
    try {
      const live = new LivePage(page, fresh.url);
      await live.open();
      await expect(page.getByRole('heading', { name: 'No cameras yet' })).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath('first-run.png') });
      await page.getByRole('button', { name: 'Add the demo stream' }).click();
      await expect(live.state('demo')).toHaveText('live', { timeout: 30_000 });
      expect(await readFile(fresh.configPath, 'utf8')).toMatch(/demo: ffmpeg:virtual\?video=testsrc2/);
      await page.close();
    } finally {
      await fresh.stop();
    }
  });
});
