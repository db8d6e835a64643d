import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expectAccessible } from '../fixtures/accessibility';
import { test, expect } from '../fixtures/test';
import { ConsolePage } from '../pages/console-page';

const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { version: string };

const SECTIONS = [
  ['live', 'Live'],
  ['streams', 'Streams'],
  ['config', 'Config'],
  ['storage', 'Storage'],
  ['directory', 'Directory'],
  ['calendar', 'Calendar'],
  ['settings', 'Settings'],
  ['about', 'About'],
] as const;

test('every section opens from the navigation', async ({ page, consoleServer }) => {
  const console = new ConsolePage(page, consoleServer.url);
  await console.open();
  await expect(console.heading()).toHaveText('Live');
  for (const [id, title] of SECTIONS) {
    await console.navLink(id).click();
    await expect(page).toHaveURL(new RegExp(`#/${id}$`));
    await expect(console.heading()).toHaveText(title);
    await expect(page).toHaveTitle(`${title} · Relay Console`);
  }
});

test('every section passes axe with no serious or critical violation', async ({ page, consoleServer }, testInfo) => {
  const console = new ConsolePage(page, consoleServer.url);
  for (const [id, title] of SECTIONS) {
    await console.open(id);
    await expect(console.heading()).toHaveText(title);
    // Sections that load data are checked once they show it, not their spinner.
    await expect(page.getByText(/^(Loading|Reading)/)).toHaveCount(0);
    await expectAccessible(page, `the ${title} section`);
    await page.screenshot({ path: testInfo.outputPath(`section-${id}.png`) });
  }
});

test('a deep link opens its section and an unknown one lands on Live', async ({ page, consoleServer }) => {
  const console = new ConsolePage(page, consoleServer.url);
  await console.open('calendar');
  await expect(console.heading()).toHaveText('Calendar');
  await console.open('no-such-section');
  await expect(console.heading()).toHaveText('Live');
});

test('About shows the real version, runtime and files through the WebSocket contract', async ({ page, consoleServer }, testInfo) => {
  const console = new ConsolePage(page, consoleServer.url);
  await console.open('about');
  await expect(console.connectionState()).toHaveText('Connected');
  await expect(console.aboutValue('version')).toHaveText(pkg.version);
  await expect(console.aboutValue('runtime')).toHaveText('Headless (browser)');
  await expect(console.aboutValue('config-path')).toHaveText(consoleServer.configPath);
  await expect(console.aboutValue('data-dir')).toHaveText(consoleServer.dataDir);
  // The shared console may have run other specs for minutes already.
  await expect(console.aboutValue('uptime')).toHaveText(/^(\d+ min )?\d+ s$/);
  // The uptime follows main's heartbeat event, pushed over the same socket.
  const before = await console.aboutValue('uptime').textContent();
  await expect(console.aboutValue('uptime')).not.toHaveText(before ?? '', { timeout: 12_000 });
  await page.screenshot({ path: testInfo.outputPath('about.png') });
});

test('the page is served with a strict content security policy', async ({ page, consoleServer }) => {
  const response = await page.goto(`${consoleServer.url}/`);
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(response?.headers()['x-content-type-options']).toBe('nosniff');
});
