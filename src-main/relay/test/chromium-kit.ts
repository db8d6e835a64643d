import { chromium, type Browser, type Page } from 'playwright-core';
import type { RelayUnderTest } from './relay-test-kit';

/**
 * Debian's Chromium as the tests drive it (no background networking: this machine has no
 * internet), with a page served by the relay, so the page's requests are same-origin with it as
 * the console's own are.
 */
export async function openRelayPage(relay: RelayUnderTest): Promise<{ browser: Browser; page: Page }> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--autoplay-policy=no-user-gesture-required'],
  });
  const page = await browser.newPage();
  await page.goto(`${relay.api}/api`);
  return { browser, page };
}
