import { readFile, writeFile } from 'node:fs/promises';
import { freePort, startHeadlessConsole, type HeadlessConsole } from '../fixtures/headless-console';
import { expectAccessible } from '../fixtures/accessibility';
import { test, expect } from '../fixtures/test';
import { ConfigPage } from '../pages/config-page';

// This file saves and restarts its engine, so it has a console of its own on a fixed port
// (a restart keeps it, and the open page reconnects), not the one the other specs share.
let own: HeadlessConsole;
test.beforeAll(async () => {
  own = await startHeadlessConsole('', await freePort());
});
test.afterAll(async () => {
  expect(await own.stop(), 'exit code of the config spec console').toBe(0);
});

test.describe('config editor', () => {
  test('a syntax error shows at its line and the file is left as it was', async ({ page }, testInfo) => {
    const config = new ConfigPage(page, own.url);
    await config.open();
    await expect(page.getByTestId('config-path')).toHaveText(own.configPath);
    await expect(config.line('# e2e config')).toBeVisible();
    await expect(page.getByTestId('no-problems')).toBeVisible();
    const before = await readFile(own.configPath, 'utf8');
    const lines = before.split('\n').length;

    await config.append('bad: x: y\n');
    await expect(config.problems()).toContainText(`line ${lines}, column 6`);
    await expect(config.problems()).toContainText('Nested mappings are not allowed');
    await expect(config.problems()).toContainText('error');
    await expect(page.getByTestId('config-editor').locator('.cm-lintRange-error')).toHaveCount(1);
    await expect(page.getByTestId('unsaved')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('config-syntax-error.png') });
    await expectAccessible(page, 'the config editor with a problem');

    await page.keyboard.press('Control+s');
    await expect(page.getByTestId('save-blocked')).toContainText('Fix the error first');
    await expect(config.dialog()).toBeHidden();
    expect(await readFile(own.configPath, 'utf8')).toBe(before);

    // The problem list takes the cursor to the line.
    await config.problems().getByRole('button').first().click();
    await expect(config.editor()).toBeFocused();
    await config.button('Revert').click();
    await expect(page.getByTestId('no-problems')).toBeVisible();
  });

  test('completes keys and values from the schema and explains a key on hover', async ({ page }) => {
    const config = new ConfigPage(page, own.url);
    await config.open();
    await config.line(/^ {2}level: warn$/).click();
    await page.keyboard.press('End');
    for (let i = 0; i < 'warn'.length; i += 1) await page.keyboard.press('Backspace');
    await page.keyboard.press('Control+Space');
    await expect(config.completions()).toContainText('debug');
    await expect(config.completions()).toContainText('trace');
    await page.keyboard.type('de');
    await config.accept('debug');
    await expect(config.line(/^ {2}level: debug$/)).toBeVisible();

    await config
      .line(/^ {2}listen: 127\.0\.0\.1:\d+$/)
      .first()
      .click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('user');
    await config.accept('username');
    await expect(config.line(/^ {2}username: $/)).toBeVisible();

    await config
      .line(/^ {2}local_auth|^rtsp:$/)
      .first()
      .hover({ position: { x: 10, y: 5 } });
    await expect(page.locator('.config-hover')).toContainText('rtsp');
    await expect(page.locator('.config-hover')).toContainText('RTSP server');
    await config.button('Revert').click();
    await expect(config.line(/^ {2}level: warn$/)).toBeVisible();
  });

  test('save shows the diff, then writes the file; the new stream plays', async ({ page }, testInfo) => {
    const config = new ConfigPage(page, own.url);
    await config.open();
    await expect(config.line('# e2e config')).toBeVisible();
    await config.append('streams:\n  cfg-cam: ffmpeg:virtual?video=testsrc&size=320x240#video=h264\n');
    await expect(page.getByTestId('no-problems')).toBeVisible();
    await config.button('Save…').click();
    await expect(config.dialog()).toContainText('Save the config file');
    await expect(page.getByTestId('config-diff').locator('.cm-changedLine')).toHaveCount(2);
    await expect(page.getByTestId('config-diff')).toContainText('cfg-cam: ffmpeg:virtual');
    await expectAccessible(page, 'the save dialog');
    await page.screenshot({ path: testInfo.outputPath('config-diff.png') });
    await config.dialog().getByRole('button', { name: 'Write file' }).click();
    await expect(page.getByTestId('saved')).toBeVisible();
    await expect(page.getByTestId('unsaved')).toBeHidden();
    expect(await readFile(own.configPath, 'utf8')).toContain('  cfg-cam: ffmpeg:virtual?video=testsrc&size=320x240#video=h264\n');
    await expect.poll(async () => Object.keys(await (await fetch(`${own.url}/api/streams`)).json())).toContain('cfg-cam');
    const frame = await fetch(`${own.url}/api/frame.jpeg?src=cfg-cam`);
    expect(frame.status).toBe(200);
    expect([...new Uint8Array(await frame.arrayBuffer()).subarray(0, 2)]).toEqual([0xff, 0xd8]);
  });

  test('a stream added to the file on disk is applied from the notice, and a broken file applies nothing', async ({ page }, testInfo) => {
    const config = new ConfigPage(page, own.url);
    await config.open();
    await expect(config.line('# e2e config')).toBeVisible();
    await expect(page.getByTestId('changed-on-disk')).toHaveCount(0);
    const onDisk = await readFile(own.configPath, 'utf8');
    const streamsBefore = Object.keys(await (await fetch(`${own.url}/api/streams`)).json());

    // A broken edit on disk: the notice shows, Apply says where the file is wrong and applies nothing.
    const brokenLine = onDisk.split('\n').length + 1;
    await writeFile(own.configPath, `${onDisk}# edited by hand\nbad: x: y\n`);
    await expect(page.getByTestId('changed-on-disk')).toContainText('The file changed on disk');
    await expect(page.getByTestId('not-applied')).toBeVisible();
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect(page.getByTestId('apply-error')).toContainText('invalid YAML');
    await expect(page.getByTestId('apply-error')).toContainText(`line ${brokenLine}, column 6); nothing was applied`);
    await page.screenshot({ path: testInfo.outputPath('config-disk-broken.png') });
    expect(Object.keys(await (await fetch(`${own.url}/api/streams`)).json())).toEqual(streamsBefore);

    // A good edit on disk: a new stream and another log level.
    const camLine = '  disk-cam: ffmpeg:virtual?video=testsrc&size=320x240#video=h264\n';
    const withStream = (
      onDisk.includes('\nstreams:\n') ? onDisk.replace('\nstreams:\n', `\nstreams:\n${camLine}`) : `${onDisk}streams:\n${camLine}`
    ).replace('level: warn', 'level: info');
    await writeFile(own.configPath, withStream);
    await expect(config.line('disk-cam: ffmpeg:virtual')).toBeVisible();
    await expect(page.getByTestId('apply-error')).toHaveCount(0);
    await expect(page.getByTestId('not-applied')).toBeVisible();
    // Nothing is applied until the user says so.
    expect(Object.keys(await (await fetch(`${own.url}/api/streams`)).json())).not.toContain('disk-cam');
    await page.screenshot({ path: testInfo.outputPath('config-disk-changed.png') });
    await expectAccessible(page, 'the changed-on-disk notice');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect(page.getByTestId('applied')).toContainText('Streams added disk-cam.');
    await expect(page.getByTestId('applied')).toContainText('Changes to log take effect after a restart');
    await expect(page.getByTestId('changed-on-disk')).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath('config-disk-applied.png') });
    expect(Object.keys(await (await fetch(`${own.url}/api/streams`)).json())).toContain('disk-cam');
    expect(await readFile(own.configPath, 'utf8')).toBe(withStream);

    await page.getByTestId('nav-streams').click();
    await expect(page.getByTestId('streams-table').locator('tr[data-stream="disk-cam"]')).toBeVisible();
  });

  test('a file changed on disk while editing is offered as a reload', async ({ page }) => {
    const config = new ConfigPage(page, own.url);
    await config.open();
    await expect(config.line('# e2e config')).toBeVisible();
    // No unsaved work: the editor follows the file and says so.
    const onDisk = await readFile(own.configPath, 'utf8');
    await writeFile(own.configPath, `${onDisk}# first outside edit\n`);
    await expect(page.getByTestId('reloaded-notice')).toBeVisible();
    await expect(config.line('# first outside edit')).toBeVisible();

    // Unsaved work: the change is offered, not forced.
    await config.append('# typed here\n');
    await writeFile(own.configPath, `${onDisk}# second outside edit\n`);
    await expect(page.getByTestId('changed-on-disk')).toBeVisible();
    await expect(config.line('# typed here')).toBeVisible();
    // Reloading would lose what was typed here: it asks first, and Cancel keeps it.
    await page.getByRole('button', { name: 'Reload from disk' }).click();
    await expect(page.getByRole('group', { name: 'Discard unsaved changes?' })).toBeVisible();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(config.line('# typed here')).toBeVisible();
    await page.getByRole('button', { name: 'Reload from disk' }).click();
    await page.getByRole('button', { name: 'Discard and reload' }).click();
    await expect(config.line('# second outside edit')).toBeVisible();
    await expect(config.line('# typed here')).toHaveCount(0);
    await expect(page.getByTestId('unsaved')).toBeHidden();
  });

  test('save and restart brings the engine back with the new config', async ({ page }) => {
    const config = new ConfigPage(page, own.url);
    await config.open();
    await expect(config.line('cfg-cam')).toBeVisible();
    const before = (await (await fetch(`${own.url}/api`)).json()) as { rtsp: { default_query: string } };
    expect(before.rtsp.default_query).toBe('video&audio');
    await config.line(/^rtsp:$/).click();
    await page.keyboard.press('End');
    await page.keyboard.insertText('\n  default_query: video');
    await expect(page.getByTestId('no-problems')).toBeVisible();
    await config.button('Save and restart…').click();
    await expect(config.dialog()).toContainText('The engine then restarts');
    const restarted = own.restarted();
    await config.dialog().getByRole('button', { name: 'Write and restart' }).click();
    expect(await restarted).toBe(own.url);
    await expect(page.getByTestId('restarted')).toBeVisible({ timeout: 30_000 });
    const after = (await (await fetch(`${own.url}/api`)).json()) as { rtsp: { default_query: string } };
    expect(after.rtsp.default_query).toBe('video');
    await expect(page.getByTestId('connection-state')).toHaveText('Connected');

    // The same change made on disk instead: the editor has it, so there is nothing to write, but
    // the engine does not run it yet; Save and restart restarts onto it (not "Nothing to save").
    const onDisk = await readFile(own.configPath, 'utf8');
    await writeFile(own.configPath, onDisk.replace('default_query: video', 'default_query: audio'));
    await expect(page.getByTestId('not-applied')).toBeVisible();
    await expect(page.getByTestId('unsaved')).toBeHidden();
    await expect(config.line('default_query: audio')).toBeVisible();
    await expect(page.getByTestId('no-problems')).toBeVisible();
    await config.button('Save and restart…').click();
    await expect(page.getByTestId('save-blocked')).toHaveCount(0);
    await expect(config.dialog()).toContainText('was changed outside the console and the relay is not running it');
    const again = own.restarted();
    await config.dialog().getByRole('button', { name: 'Restart', exact: true }).click();
    expect(await again).toBe(own.url);
    await expect(page.getByTestId('restarted')).toBeVisible({ timeout: 30_000 });
    const onAudio = (await (await fetch(`${own.url}/api`)).json()) as { rtsp: { default_query: string } };
    expect(onAudio.rtsp.default_query).toBe('audio');
    await expect(page.getByTestId('changed-on-disk')).toHaveCount(0);
  });
});
