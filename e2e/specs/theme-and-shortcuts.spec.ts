import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { contrastRatio } from '../../src-renderer/ui/color/contrast';
import { expectAccessible } from '../fixtures/accessibility';
import { test, expect } from '../fixtures/test';
import { ConfigPage } from '../pages/config-page';
import { ConsolePage } from '../pages/console-page';

// The theme is kept by main in data_dir (the desktop window and browsers agree), the config
// editor follows it, and `?` lists the keys of whichever section is shown.

const storedTheme = async (dataDir: string): Promise<unknown> => {
  try {
    return JSON.parse(await readFile(join(dataDir, 'console-preferences.json'), 'utf8')).appearance?.colorScheme;
  } catch {
    return undefined;
  }
};

const colorScheme = (page: Page) => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

/** The colours of a key and of a value as the config editor draws them, and the editor's background. */
async function editorColours(page: Page, key: string, value: string) {
  return page.getByTestId('config-editor').evaluate(
    (host, words) => {
      const colourOf = (text: string) => {
        const spans = [...host.querySelectorAll('.cm-line span')].filter((span) => span.textContent === text && span.children.length === 0);
        if (spans.length === 0) throw new Error(`no token "${text}" in the editor`);
        return getComputedStyle(spans[0]!).color;
      };
      return {
        key: colourOf(words.key),
        value: colourOf(words.value),
        background: getComputedStyle(host.querySelector('.cm-editor')!).backgroundColor,
      };
    },
    { key, value },
  );
}

async function expectReadableEditor(page: Page) {
  const colours = await editorColours(page, 'level', 'warn');
  expect(contrastRatio(colours.key, colours.background), `key ${colours.key} on ${colours.background}`).toBeGreaterThanOrEqual(4.5);
  expect(contrastRatio(colours.value, colours.background), `value ${colours.value} on ${colours.background}`).toBeGreaterThanOrEqual(4.5);
  expect(colours.key).not.toBe(colours.value);
  return colours;
}

test.describe('theme', () => {
  // Other spec files share this console: it goes back to System whatever happens here.
  test.afterEach(async ({ page, consoleServer }) => {
    const console = new ConsolePage(page, consoleServer.url);
    const stored = await storedTheme(consoleServer.dataDir);
    if (stored === undefined || stored === 'system') return;
    await console.open('settings');
    await console.themeOption('System').click();
    await expect.poll(() => storedTheme(consoleServer.dataDir)).toBe('system');
  });

  test('Dark chosen in Settings is kept by main, survives a reload, and the config editor stays readable in both themes', async ({
    page,
    consoleServer,
  }, testInfo) => {
    const console = new ConsolePage(page, consoleServer.url);
    const config = new ConfigPage(page, consoleServer.url);
    await page.emulateMedia({ colorScheme: 'light' });
    await console.open('settings');
    await expect(console.settingsThemeRadio('System')).toBeChecked();

    await console.settingsThemeRadio('Dark').check();
    await expect.poll(() => colorScheme(page)).toBe('dark');
    expect(await bodyBackground(page)).toBe('rgb(36, 36, 36)');
    await expect(console.themeRadio('Dark')).toBeChecked();
    await expect.poll(() => storedTheme(consoleServer.dataDir)).toBe('dark');
    await expectAccessible(page, 'the Settings section in dark');
    await page.screenshot({ path: testInfo.outputPath('settings-dark.png'), fullPage: true });

    // After a reload the page arrives dark: main writes the choice into the page it serves.
    const served = await (await page.request.get(`${consoleServer.url}/`)).text();
    expect(served).toContain('<html lang="en" data-mantine-color-scheme="dark">');
    await page.reload();
    await expect(console.settingsThemeRadio('Dark')).toBeChecked();
    expect(await colorScheme(page)).toBe('dark');

    await console.navLink('config').click();
    await expect(config.line(/^ {2}level: warn$/)).toBeVisible();
    const dark = await expectReadableEditor(page);
    expect(dark.background).toBe('rgb(36, 36, 36)');
    await expectAccessible(page, 'the Config section in dark');
    await page.screenshot({ path: testInfo.outputPath('config-dark.png'), fullPage: true });

    // The editor's theme changes in place: what was typed, and its undo, survive the switch.
    await config.append('# typed before the switch\n');
    await expect(config.line('# typed before the switch')).toBeVisible();
    // The diff before saving, in dark: the added line reads on its green.
    await config.button('Save…').click();
    const diff = page.getByTestId('config-diff');
    const added = diff.locator('.cm-changedLine', { hasText: '# typed before the switch' });
    await expect(added).toBeVisible();
    const addedColours = await added.evaluate((line) => ({
      text: getComputedStyle(line.querySelector('span') ?? line).color,
      background: getComputedStyle(line).backgroundColor,
    }));
    expect(
      contrastRatio(addedColours.text, addedColours.background),
      `${addedColours.text} on ${addedColours.background}`,
    ).toBeGreaterThanOrEqual(4.5);
    await page.screenshot({ path: testInfo.outputPath('config-diff-dark.png') });
    await page.keyboard.press('Escape');
    await expect(config.dialog()).toBeHidden();
    await console.themeOption('Light').click();
    await expect.poll(() => colorScheme(page)).toBe('light');
    await expect(config.line('# typed before the switch')).toBeVisible();
    const light = await expectReadableEditor(page);
    expect(light.background).toBe('rgb(255, 255, 255)');
    expect(light.key).not.toBe(dark.key);
    await expect.poll(() => storedTheme(consoleServer.dataDir)).toBe('light');
    await config.editor().focus();
    await page.keyboard.press('Control+z');
    await expect(config.line('# typed before the switch')).toHaveCount(0);
    await expect(page.getByTestId('unsaved')).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath('config-light.png'), fullPage: true });
  });

  test('System follows the operating system as it switches', async ({ page, consoleServer }) => {
    const console = new ConsolePage(page, consoleServer.url);
    await page.emulateMedia({ colorScheme: 'light' });
    await console.open('settings');
    await console.settingsThemeRadio('Dark').check();
    await expect.poll(() => storedTheme(consoleServer.dataDir)).toBe('dark');

    await console.themeOption('System').click();
    await expect(console.settingsThemeRadio('System')).toBeChecked();
    await expect.poll(() => storedTheme(consoleServer.dataDir)).toBe('system');
    await expect.poll(() => colorScheme(page)).toBe('light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => colorScheme(page)).toBe('dark');
    await expect.poll(() => bodyBackground(page)).toBe('rgb(36, 36, 36)');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => colorScheme(page)).toBe('light');
    await expect.poll(() => bodyBackground(page)).toBe('rgb(255, 255, 255)');
  });
});

test.describe('keyboard shortcuts', () => {
  const SECTION_KEYS = [
    ['live', 'Live', ['Next tile', 'Fullscreen the selected tile']],
    ['storage', 'Storage', ['Up one folder', 'Select every loaded row', 'Rename the object']],
    ['config', 'Config', ['Save the file (checks it first)', 'Suggest keys and values from the schema']],
    ['directory', 'Directory', ['Save the assignment policy']],
  ] as const;

  test('? lists the keys of the section shown and the global ones; Escape closes the list', async ({ page, consoleServer }, testInfo) => {
    const console = new ConsolePage(page, consoleServer.url);
    for (const [id, title, keys] of SECTION_KEYS) {
      await console.open(id);
      await expect(console.heading()).toHaveText(title);
      await page.keyboard.press('?');
      const dialog = console.shortcutsDialog();
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('heading', { name: new RegExp(`^${title}: `) }).first()).toBeVisible();
      for (const description of keys) await expect(dialog.getByRole('cell', { name: description, exact: true })).toBeVisible();
      await expect(dialog.getByRole('cell', { name: 'Show the keyboard shortcuts' })).toBeVisible();
      if (id === 'storage') {
        await expectAccessible(page, 'the shortcuts dialog');
        await page.screenshot({ path: testInfo.outputPath('shortcuts-storage.png') });
      }
      if (id === 'live') {
        // The same list in dark, as a system in dark mode shows it.
        await page.emulateMedia({ colorScheme: 'dark' });
        await expect.poll(() => colorScheme(page)).toBe('dark');
        await expectAccessible(page, 'the shortcuts dialog in dark');
        await page.screenshot({ path: testInfo.outputPath('shortcuts-live-dark.png') });
        await page.emulateMedia({ colorScheme: 'light' });
      }
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    }

    // A section with no keys of its own says so.
    await console.open('calendar');
    await page.keyboard.press('?');
    await expect(console.shortcutsDialog()).toContainText('The Calendar section has no keys of its own');
    await page.keyboard.press('Escape');
    await expect(console.shortcutsDialog()).toBeHidden();
  });

  test('? typed into the config editor is text; the sidebar entry opens the list from the keyboard', async ({
    page,
    consoleServer,
  }, testInfo) => {
    const console = new ConsolePage(page, consoleServer.url);
    const config = new ConfigPage(page, consoleServer.url);
    await config.open();
    await expect(config.line('# e2e config')).toBeVisible();
    await config.editor().focus();
    await page.keyboard.press('?');
    await expect(config.line('?# e2e config')).toBeVisible();
    await expect(console.shortcutsDialog()).toHaveCount(0);
    await page.keyboard.press('Control+z');
    await expect(config.line('?# e2e config')).toHaveCount(0);

    // Tab from the navigation's last link reaches the theme switch and then the shortcuts entry.
    await console.navLink('settings').focus();
    await page.keyboard.press('Tab');
    await expect(console.themeRadio('System')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(console.shortcutsButton()).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(console.shortcutsDialog()).toBeVisible();
    await expect(console.shortcutsDialog()).toContainText('Find and replace');
    await page.screenshot({ path: testInfo.outputPath('shortcuts-config.png') });
    await page.keyboard.press('Escape');
    await expect(console.shortcutsDialog()).toBeHidden();
    await expect(console.shortcutsButton()).toBeFocused();
  });
});
