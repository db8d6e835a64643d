import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { expectAccessible } from '../fixtures/accessibility';
import { freePort, startHeadlessConsole } from '../fixtures/headless-console';
import { test, expect } from '../fixtures/test';
import { StreamsPage } from '../pages/streams-page';

const CAMERA = 'ffmpeg:virtual?video=testsrc&size=320x240#video=h264';

async function apiStreams(url: string): Promise<Record<string, { producers: Array<{ url: string }>; consumers?: unknown[] }>> {
  return (await (await fetch(`${url}/api/streams`)).json()) as Record<string, { producers: Array<{ url: string }> }>;
}

test.describe('streams page', () => {
  test('adds a stream through the form after probing it; refuses commands and shows a dead source', async ({
    page,
    consoleServer,
  }, testInfo) => {
    const streams = new StreamsPage(page, consoleServer.url);
    await streams.open();
    await page.getByRole('button', { name: 'Add stream' }).first().click();
    await expect(streams.dialog()).toContainText('Add a stream');
    await expectAccessible(page, 'the add-stream form');
    // The hint lists only schemes the relay takes from the console (homekit:// is only discovered).
    await expect(streams.dialog()).toContainText('rtsp://, rtsps://, http://');
    await expect(streams.dialog()).toContainText('Commands (exec:, echo:, expr:) are accepted only in the config file.');
    await expect(streams.dialog()).not.toContainText('homekit');

    // Nothing typed: the form says what is missing.
    await streams.dialog().getByRole('button', { name: 'Add stream' }).click();
    await expect(streams.dialog()).toContainText('a stream needs a name');
    await streams.nameField().fill('s-form-cam');

    await streams.sourceField().fill('exec:ls');
    await streams.sourceField().blur();
    await expect(streams.dialog()).toContainText('source exec runs commands and is accepted from the config file only');

    await streams.probe('rtsp://127.0.0.1:1/nothing');
    await expect(streams.probeResult()).toContainText('The source did not play');
    await expect(streams.probeResult()).toContainText(/refused/i);

    await streams.probe(CAMERA);
    await expect(streams.probeResult()).toContainText('H264 320×240', { timeout: 15_000 });
    await page.screenshot({ path: testInfo.outputPath('streams-add-probe.png') });
    await streams.dialog().getByRole('button', { name: 'Add stream' }).click();
    await expect(streams.dialog()).toBeHidden();

    await expect(streams.row('s-form-cam')).toBeVisible();
    expect((await apiStreams(consoleServer.url))['s-form-cam']?.producers[0]?.url).toBe(CAMERA);
    expect(await readFile(consoleServer.configPath, 'utf8')).toContain(`s-form-cam: ${CAMERA}`);
    await expectAccessible(page, 'the stream list');
    await page.screenshot({ path: testInfo.outputPath('streams-list.png') });
  });

  test('a stream shows its viewers live, and links that play', async ({ page, consoleServer, context }, testInfo) => {
    await fetch(`${consoleServer.url}/api/streams?name=s-links-cam&src=${encodeURIComponent(CAMERA)}`, { method: 'PUT' });
    const streams = new StreamsPage(page, consoleServer.url);
    await streams.open();
    await streams.page.getByPlaceholder('Filter by name, codec or state').fill('s-links');
    await streams.row('s-links-cam').getByRole('link', { name: 's-links-cam', exact: true }).click();
    await expect(page).toHaveURL(/#\/streams\/s-links-cam$/);
    await expect(page.getByTestId('no-consumers')).toBeVisible();

    await page.getByRole('tab', { name: 'Links' }).click();
    await expect(page).toHaveURL(/#\/streams\/s-links-cam\/links$/);
    await expect(page.getByTestId('stream-links').locator('tbody tr')).toHaveCount(9);
    await expect(streams.link('hls-fmp4')).toContainText('/api/stream.m3u8?src=s-links-cam&mp4');
    await expect(streams.link('ws')).toContainText(/^MSE \/ WebRTC over WebSocketws:\/\/127\.0\.0\.1:\d+\/api\/ws\?src=s-links-cam/);
    const rtsp = await streams.linkUrl('rtsp');
    expect(rtsp).toMatch(/^rtsp:\/\/127\.0\.0\.1:\d+\/s-links-cam$/);
    await expect(page.getByTestId('player-snippets')).toContainText(`ffplay -rtsp_transport tcp -fflags nobuffer "${rtsp}"`);
    await expectAccessible(page, 'the links tab');
    await page.screenshot({ path: testInfo.outputPath('streams-links.png') });

    // Copy puts the URL on the clipboard.
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: consoleServer.url });
    await streams.link('frame-jpeg').getByRole('button', { name: 'Copy Snapshot (JPEG) link' }).click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await streams.linkUrl('frame-jpeg'));
    const jpeg = Buffer.from(await (await fetch(copied)).arrayBuffer());
    expect([...jpeg.subarray(0, 2)]).toEqual([0xff, 0xd8]);

    // A real RTSP viewer on the copied link shows up under Viewers while it watches.
    const viewer = spawn(
      'ffmpeg',
      ['-hide_banner', '-loglevel', 'error', '-rtsp_transport', 'tcp', '-i', rtsp, '-t', '30', '-f', 'null', '-'],
      { stdio: 'ignore' },
    );
    try {
      await page.getByRole('tab', { name: 'Activity' }).click();
      const consumers = page.getByTestId('consumers');
      await expect(consumers).toContainText('rtsp+tcp', { timeout: 15_000 });
      await expect(consumers).toContainText(/127\.0\.0\.1:\d+/);
      await expect(consumers).not.toContainText(/\b0 B\b/, { timeout: 10_000 });
      await expect(page.getByTestId('producers')).toContainText('H264 320×240');
      await expect(page.getByTestId('producers')).toContainText('running');
      await page.screenshot({ path: testInfo.outputPath('streams-activity.png') });
    } finally {
      viewer.kill('SIGKILL');
    }
    await expect(page.getByTestId('no-consumers')).toBeVisible({ timeout: 15_000 });
    await expectAccessible(page, 'the activity tab');
  });

  test('edits a stream source and deletes a stream after asking', async ({ page, consoleServer }) => {
    await fetch(`${consoleServer.url}/api/streams?name=s-edit-cam&src=${encodeURIComponent(CAMERA)}`, { method: 'PUT' });
    const streams = new StreamsPage(page, consoleServer.url);
    await streams.open();
    await streams.row('s-edit-cam').getByRole('button', { name: 'Edit s-edit-cam' }).click();
    await expect(streams.sourceField()).toHaveValue(CAMERA);
    await expect(streams.nameField()).toHaveValue('s-edit-cam');
    const edited = 'ffmpeg:virtual?video=testsrc2&size=640x360#video=h264';
    await streams.sourceField().fill(edited);
    await streams.dialog().getByRole('button', { name: 'Save' }).click();
    await expect(streams.dialog()).toBeHidden();
    await expect.poll(async () => (await apiStreams(consoleServer.url))['s-edit-cam']?.producers[0]?.url).toBe(edited);
    expect(await readFile(consoleServer.configPath, 'utf8')).toContain(`s-edit-cam: ${edited}`);

    // Sorting by name from the keyboard.
    await page.getByRole('button', { name: 'Name' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'descending');

    await streams.row('s-edit-cam').getByRole('button', { name: 'Delete s-edit-cam' }).click();
    await expect(streams.dialog()).toContainText('Delete s-edit-cam?');
    await streams.dialog().getByRole('button', { name: 'Cancel' }).click();
    await expect(streams.row('s-edit-cam')).toBeVisible();
    await streams.row('s-edit-cam').getByRole('button', { name: 'Delete s-edit-cam' }).click();
    await streams.dialog().getByRole('button', { name: 'Delete stream' }).click();
    await expect(streams.row('s-edit-cam')).toHaveCount(0);
    expect((await apiStreams(consoleServer.url))['s-edit-cam']).toBeUndefined();
    expect(await readFile(consoleServer.configPath, 'utf8')).not.toContain('s-edit-cam');
  });

  test('renames a stream and saves several sources in the order the user sets, refusing a name that is taken', async ({
    page,
    consoleServer,
  }, testInfo) => {
    const url = consoleServer.url;
    const second = 'ffmpeg:virtual?video=testsrc2&size=320x240#video=h264';
    const third = 'rtsp://127.0.0.1:1/spare';
    for (const name of ['s-rename-cam', 's-rename-taken']) {
      expect((await fetch(`${url}/api/streams?name=${name}&src=${encodeURIComponent(CAMERA)}`, { method: 'PUT' })).status).toBe(200);
    }
    try {
      const streams = new StreamsPage(page, url);
      await streams.open('#/streams/s-rename-cam');
      await page.getByRole('button', { name: 'Edit' }).click();
      await expect(streams.dialog()).toContainText('Edit s-rename-cam');

      // A name that another stream has is refused in words, and nothing is sent.
      await streams.nameField().fill('s-rename-taken');
      await streams.dialog().getByRole('button', { name: 'Save' }).click();
      await expect(streams.dialog()).toContainText('a stream named s-rename-taken exists already: choose another name');
      await streams.nameField().fill('s-renamed-cam');
      await expect(streams.dialog()).toContainText('Renaming changes every link');

      // Two more sources; the third removed again; the second moved first from the keyboard.
      await streams.dialog().getByRole('button', { name: 'Add source' }).click();
      await expect(streams.sourceField(1)).toBeFocused();
      await page.keyboard.type(second);
      await streams.dialog().getByRole('button', { name: 'Add source' }).click();
      await streams.sourceField(2).fill(third);
      expect(await streams.sourceValues()).toEqual([CAMERA, second, third]);
      await streams.sourceAction('Remove', 2).click();
      expect(await streams.sourceValues()).toEqual([CAMERA, second]);
      // Each key waits for what a screen reader hears back (dnd-kit's announcements).
      const announced = (text: string) => expect(page.getByText(text)).toHaveCount(1);
      await streams.sourceAction('Move', 1).focus();
      await page.keyboard.press('Space');
      await expect(streams.sourceAction('Move', 1)).toHaveAttribute('aria-pressed', 'true');
      await announced('Source 2 is over position 2 of 2.');
      // dnd-kit's keyboard sensor starts listening a timer after the drag starts (so the Space
      // that started it is not read as a move): on a loaded machine an arrow pressed at once can
      // come before it. Pressed again until heard; a second ArrowUp at the top moves nothing.
      await expect(async () => {
        await page.keyboard.press('ArrowUp');
        await expect(page.getByText('Source 2 is over position 1 of 2.')).toHaveCount(1, { timeout: 1_000 });
      }).toPass({ timeout: 10_000 });
      await page.keyboard.press('Space');
      await announced('Source 2 dropped at position 1 of 2.');
      await expect.poll(() => streams.sourceValues()).toEqual([second, CAMERA]);
      await expectAccessible(page, 'the edit-stream form with two sources');
      await page.screenshot({ path: testInfo.outputPath('streams-edit-sources.png') });

      await streams.dialog().getByRole('button', { name: 'Save' }).click();
      await expect(streams.dialog()).toBeHidden();
      // The page moves with the stream.
      await expect(page).toHaveURL(/#\/streams\/s-renamed-cam$/);
      await expect(page.getByRole('heading', { level: 1, name: 's-renamed-cam' })).toBeVisible();

      const stored = await apiStreams(url);
      expect(stored).not.toHaveProperty('s-rename-cam');
      expect(stored['s-renamed-cam']?.producers.map((p) => p.url)).toEqual([second, CAMERA]);
      const config = await readFile(consoleServer.configPath, 'utf8');
      expect(config).toContain(`  s-renamed-cam:\n    - ${second}\n    - ${CAMERA}\n`);
      expect(config).not.toMatch(/s-rename-cam\b/);
      await page.screenshot({ path: testInfo.outputPath('streams-renamed.png') });
    } finally {
      for (const name of ['s-rename-cam', 's-renamed-cam', 's-rename-taken'])
        await fetch(`${url}/api/streams?src=${name}`, { method: 'DELETE' });
    }
  });

  test('an unknown stream says so instead of showing an empty page', async ({ page, consoleServer }) => {
    const streams = new StreamsPage(page, consoleServer.url);
    await streams.open('#/streams/no-such-camera');
    await expect(page.getByTestId('stream-missing')).toContainText('No stream named no-such-camera');
    await page.getByRole('link', { name: 'All streams' }).click();
    await expect(page).toHaveURL(/#\/streams$/);
  });

  test('while the relay is down the form refuses at once, a banner says so, and nothing is sent once it is back', async ({
    page,
    pageErrors,
  }, testInfo) => {
    // A console of its own on a fixed port: it is killed and started again, and the page reconnects to it.
    const own = await startHeadlessConsole('', await freePort());
    try {
      // Every frame the page sends over its console socket: a replayed change would be one of them.
      const sent: string[] = [];
      page.on('websocket', (socket) => socket.on('framesent', (frame) => sent.push(String(frame.payload))));
      const changeCalls = () => sent.filter((payload) => /"method":"(checkSource|probeSource|addStream)"/.test(payload));
      const streams = new StreamsPage(page, own.url);
      await streams.open();
      await expect(page.getByTestId('connection-state')).toHaveText('Connected');
      await expect(page.getByTestId('disconnected-banner')).toHaveCount(0);

      await own.kill();
      const banner = page.getByRole('alert').filter({ hasText: 'Disconnected from the relay since' });
      await expect(banner).toBeVisible();
      await expect(banner).toContainText(/Disconnected from the relay since \d\d:\d\d:\d\d — reconnecting…/);
      await page.screenshot({ path: testInfo.outputPath('streams-disconnected-banner.png') });

      // The user tries to add a stream anyway: the form says at once that it cannot be sent.
      await page.getByRole('button', { name: 'Add stream' }).first().click();
      await streams.nameField().fill('s-offline-cam');
      await streams.sourceField().fill(CAMERA);
      await streams.sourceField().press('Enter');
      await expect(streams.dialog().getByTestId('form-not-connected')).toContainText('Not connected to the relay');
      await expect(streams.dialog().getByTestId('form-not-connected')).toContainText('It will not be sent later.');
      await expect(streams.dialog().getByRole('button', { name: 'Add stream' })).toBeDisabled();
      await page.screenshot({ path: testInfo.outputPath('streams-add-while-disconnected.png') });
      await expectAccessible(page, 'the add-stream form while disconnected');

      // The relay comes back: the banner goes, and the refused stream is not added behind the user's back.
      await own.relaunch();
      await expect(page.getByTestId('connection-state')).toHaveText('Connected', { timeout: 20_000 });
      await expect(banner).toHaveCount(0);
      await expect(streams.dialog().getByTestId('form-not-connected')).toHaveCount(0);
      await expect(streams.dialog().getByRole('button', { name: 'Add stream' })).toBeEnabled();
      expect(changeCalls(), 'calls sent for the change tried while disconnected').toEqual([]);
      expect(await apiStreams(own.url)).not.toHaveProperty('s-offline-cam');
      expect(await readFile(own.configPath, 'utf8')).not.toContain('s-offline-cam');

      // Once connected the same form works: the user sends the change again, on purpose.
      await streams.dialog().getByRole('button', { name: 'Add stream' }).click();
      await expect(streams.dialog()).toBeHidden();
      await expect(streams.row('s-offline-cam')).toBeVisible();
      expect((await apiStreams(own.url))['s-offline-cam']?.producers[0]?.url).toBe(CAMERA);
      await page.screenshot({ path: testInfo.outputPath('streams-after-reconnect.png') });
    } finally {
      await own.stop();
    }
    // The outage itself shows in the browser as refused (or reset) connections to the killed console (Chromium
    // does not name the address in "Failed to load resource"): expected, and nothing else is.
    const outage = (problem: string) =>
      /^console error: Failed to load resource: net::ERR_CONNECTION_(REFUSED|RESET)$/.test(problem) ||
      (problem.includes(new URL(own.url).host) && /WebSocket|ERR_CONNECTION_(REFUSED|RESET)/.test(problem));
    pageErrors.splice(0, pageErrors.length, ...pageErrors.filter((problem) => !outage(problem)));
  });
});
