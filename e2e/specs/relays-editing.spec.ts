import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { expectAccessible } from '../fixtures/accessibility';
import { freePort, startHeadlessConsole, type HeadlessConsole } from '../fixtures/headless-console';
import { expect, test } from '../fixtures/test';
import { ConfigPage } from '../pages/config-page';
import { RelaysPage } from '../pages/relays-page';
import { StreamsPage } from '../pages/streams-page';

// A second headless console on loopback is the remote relay `east`. The console under test adds
// it in Settings, then a user adds, probes, edits, renames and deletes a stream on it from
// Streams and edits its config from Config; after each step the test reads what `east` itself
// keeps: its own /api/streams and its config file on disk.

const CAMERA = 'ffmpeg:virtual?video=testsrc&size=320x240#video=h264';
const SMALLER = 'ffmpeg:virtual?video=testsrc&size=160x120#video=h264';

test.describe.configure({ mode: 'serial' });

let hub: HeadlessConsole;
let east: HeadlessConsole;

test.beforeAll(async () => {
  [hub, east] = await Promise.all([startHeadlessConsole(), startHeadlessConsole()]);
});

test.afterAll(async () => {
  const codes = await Promise.all([hub, east].map((consoleServer) => consoleServer?.stop()));
  expect(codes, 'exit codes after SIGTERM').toEqual([0, 0]);
});

/** East's own streams and the sources it plays them from, by its API. */
async function eastStreams(): Promise<Record<string, string[]>> {
  const list = (await (await fetch(`${east.url}/api/streams`)).json()) as Record<string, { producers: Array<{ url: string }> }>;
  return Object.fromEntries(Object.entries(list).map(([name, stream]) => [name, stream.producers.map((producer) => producer.url)]));
}

const eastFile = () => readFile(east.configPath, 'utf8');

/** Picks an option of a focused, closed Mantine select with the keyboard alone: open it, arrow to the option, Enter. */
async function pickWithKeyboard(page: Page, picker: Locator, option: string): Promise<void> {
  await expect(picker).toBeFocused();
  await page.keyboard.press('ArrowDown');
  const wanted = page.getByRole('option', { name: option, exact: true });
  await expect(wanted).toBeVisible();
  for (let step = 0; step < 10 && (await wanted.getAttribute('data-combobox-selected')) === null; step++) {
    await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Enter');
}

test('Settings clears a stale Test; a stream on a remote relay is added, probed, edited, renamed and deleted from Streams', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);

  // Settings: a Test result speaks of the address it tested; changing the address clears it.
  const relays = new RelaysPage(page, hub.url);
  await relays.open();
  await relays.fill('east', `http://127.0.0.1:${await freePort()}`);
  await relays.dialog().getByRole('button', { name: 'Test' }).click();
  await expect(relays.testResult()).toContainText('cannot be used', { timeout: 15_000 });
  await relays.field('Address').fill(east.url);
  await expect(relays.testResult()).toHaveCount(0);
  await relays.dialog().getByRole('button', { name: 'Test' }).click();
  await expect(relays.testResult()).toContainText('answers', { timeout: 15_000 });
  await relays.field('Name').fill('east2');
  await expect(relays.testResult()).toHaveCount(0);
  await relays.field('Name').fill('east');
  await relays.submit();
  await expect(relays.dialog()).toBeHidden({ timeout: 15_000 });
  await expect(relays.state('east')).toHaveText('reachable', { timeout: 15_000 });

  // Streams: the relay is picked with the keyboard (Shift+Tab from the name the form opens on).
  const streams = new StreamsPage(page, hub.url);
  await streams.open();
  await page.getByRole('button', { name: 'Add stream' }).first().click();
  await expect(streams.nameField()).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await pickWithKeyboard(page, streams.relayPicker(), 'east');
  await expect(streams.relayPicker()).toHaveValue('east');
  await expect(streams.dialog()).toContainText('relay://<relay>/<stream>');
  await streams.nameField().fill('e-cam');
  await streams.probe(CAMERA);
  // East dials it (over its WebSocket API, as go2rtc probes): it answers with the codec, not the size.
  await expect(streams.probeResult()).toContainText('The source answers', { timeout: 20_000 });
  await expect(streams.probeResult()).toContainText('video, recvonly, H264');
  await expectAccessible(page, 'the add-stream form with its relay picker', '[role="dialog"]');
  await page.screenshot({ path: testInfo.outputPath('remote-add-probed.png') });
  await streams.dialog().getByRole('button', { name: 'Add stream' }).click();
  await expect(streams.dialog()).toBeHidden({ timeout: 15_000 });
  await expect(streams.row('relay://east/e-cam')).toContainText('east', { timeout: 15_000 });
  expect(await eastStreams(), 'east lists the stream it was given').toMatchObject({ 'e-cam': [CAMERA] });
  expect(await eastFile()).toContain(`e-cam: ${CAMERA}`);

  // Edit its source: east plays the new one and keeps it in its file.
  await streams.row('relay://east/e-cam').getByRole('button', { name: 'Edit e-cam on east' }).click();
  await expect(streams.dialog()).toContainText('On the remote relay east');
  await streams.sourceField().fill(SMALLER);
  await streams.dialog().getByRole('button', { name: 'Save' }).click();
  await expect(streams.dialog()).toBeHidden({ timeout: 15_000 });
  await expect.poll(eastStreams, { message: 'east plays the edited source' }).toMatchObject({ 'e-cam': [SMALLER] });
  expect(await eastFile()).toContain(`e-cam: ${SMALLER}`);
  expect(await eastFile()).not.toContain(CAMERA);

  // Rename: the new name on east, the old one gone from its API and its file.
  await streams.row('relay://east/e-cam').getByRole('button', { name: 'Edit e-cam on east' }).click();
  await streams.nameField().fill('e-gate');
  await expect(streams.dialog()).toContainText('Renaming changes every link');
  await streams.dialog().getByRole('button', { name: 'Save' }).click();
  await expect(streams.dialog()).toBeHidden({ timeout: 15_000 });
  await expect(streams.row('relay://east/e-gate')).toBeVisible({ timeout: 15_000 });
  await expect(streams.row('relay://east/e-cam')).toHaveCount(0);
  const renamed = await eastStreams();
  expect(renamed).toMatchObject({ 'e-gate': [SMALLER] });
  expect(renamed).not.toHaveProperty('e-cam');
  expect(await eastFile()).toContain(`e-gate: ${SMALLER}`);
  expect(await eastFile()).not.toContain('e-cam');

  // Delete, after the question: cancelling keeps it, confirming removes it from east.
  const remove = streams.row('relay://east/e-gate').getByRole('button', { name: 'Delete e-gate on east' });
  await remove.click();
  await expect(streams.dialog()).toContainText('Delete e-gate on east?');
  await streams.dialog().getByRole('button', { name: 'Cancel' }).click();
  expect(await eastStreams()).toHaveProperty('e-gate');
  await remove.click();
  await page.screenshot({ path: testInfo.outputPath('remote-delete-confirm.png') });
  await streams.dialog().getByRole('button', { name: 'Delete stream' }).click();
  await expect(streams.row('relay://east/e-gate')).toHaveCount(0, { timeout: 15_000 });
  expect(await eastStreams()).not.toHaveProperty('e-gate');
  expect(await eastFile()).not.toContain('e-gate');
});

test('Config asks before dropping unsaved local edits for a remote relay, saves its file after the diff, and refuses a stale save', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const relays = new RelaysPage(page, hub.url);
  await relays.open();
  await expect(relays.state('east')).toHaveText('reachable', { timeout: 15_000 });

  const config = new ConfigPage(page, hub.url);
  await config.open();
  await expect(config.line('# e2e config')).toBeVisible({ timeout: 15_000 });
  await config.append('# a local draft\n');
  await expect(page.getByTestId('unsaved')).toBeVisible();

  // Switching away with unsaved edits asks first; keeping them stays on this console's file.
  await config.relayPicker().focus();
  await pickWithKeyboard(page, config.relayPicker(), 'east');
  const ask = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
  await expect(ask).toContainText("Opening east's config drops them.");
  await expect(ask.getByRole('button', { name: 'Keep editing' })).toBeFocused();
  await page.screenshot({ path: testInfo.outputPath('config-discard-ask.png') });
  await page.keyboard.press('Escape');
  await expect(ask).toBeHidden();
  await expect(config.relayPicker()).toHaveValue('This console (local)');
  await expect(config.line('# a local draft')).toBeVisible();

  await config.relayPicker().click();
  await page.getByRole('option', { name: 'east', exact: true }).click();
  await ask.getByRole('button', { name: 'Discard and switch' }).click();
  await expect(config.relayPicker()).toHaveValue('east');
  await expect(page.getByText(`east: ${east.url}/api/config`)).toBeVisible({ timeout: 15_000 });
  await expect(config.line('level: warn')).toBeVisible();
  expect(await readFile(hub.configPath, 'utf8'), 'the dropped draft was never written').not.toContain('# a local draft');

  // East's YAML changed in the editor, the diff shown, then written to east's own file.
  const before = await eastFile();
  await config.replaceAll(before.replace('level: warn', 'level: error'));
  await config.button('Save…').click();
  await expect(config.dialog()).toContainText('Save the config file');
  // One line changed: the old one shown struck out above it, the rest folded.
  await expect(page.getByTestId('config-diff').locator('.cm-changedLine')).toHaveText(['  level: error']);
  await expect(page.getByTestId('config-diff')).toContainText('level: warn');
  await page.screenshot({ path: testInfo.outputPath('config-remote-diff.png') });
  await config.dialog().getByRole('button', { name: 'Write file' }).click();
  await expect(page.getByTestId('saved')).toContainText('Saved to east.');
  await expect.poll(eastFile, { message: "east's file on disk" }).toContain('level: error');

  // Someone else changes east's config meanwhile: a save over it is refused and says why.
  const theirs = (await eastFile()).replace('level: error', 'level: debug');
  expect((await fetch(`${east.url}/api/config`, { method: 'POST', body: theirs })).ok, 'east took the other change').toBe(true);
  await config.append('# typed after they saved\n');
  await config.button('Save…').click();
  await config.dialog().getByRole('button', { name: 'Write file' }).click();
  await expect(config.dialog().getByRole('alert')).toContainText("relay east's config changed since it was opened", {
    timeout: 15_000,
  });
  expect(await eastFile(), 'the other change stays on east').toBe(theirs);

  // Closing the dialog, the editor offers their file or keeping the edits; kept, the next save
  // shows the diff against their file and writes over it on purpose.
  await page.keyboard.press('Escape');
  const changed = page.getByTestId('remote-changed');
  await expect(changed).toContainText("Someone wrote east's config while you were editing it here");
  await page.screenshot({ path: testInfo.outputPath('config-remote-conflict.png') });
  await changed.getByRole('button', { name: 'Keep my changes' }).click();
  await expect(changed).toBeHidden();
  await config.button('Save…').click();
  await expect(page.getByTestId('config-diff')).toContainText('level: debug');
  await config.dialog().getByRole('button', { name: 'Write file' }).click();
  await expect(page.getByTestId('saved')).toContainText('Saved to east.');
  await expect.poll(eastFile, { message: "east's file after keeping the edits" }).toContain('# typed after they saved');
  expect(await eastFile(), 'what was kept is what the editor had').toContain('level: error');
});
