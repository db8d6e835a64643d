import { expectAccessible } from '../fixtures/accessibility';
import { readDemoAccount, type DemoAccount } from '../fixtures/demo-account';
import { startHeadlessConsole, type HeadlessConsole } from '../fixtures/headless-console';
import { expect, test } from '../fixtures/test';

// The calendar sync against its own console, whose directory emulator starts with no demo
// events: the test writes the calendar through the emulator's Graph API, as another app would.
let server: HeadlessConsole;

/** Graph calls as another app of the tenant: client credentials of the emulator's demo app. */
async function graphAs(demo: DemoAccount) {
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: demo.client_id,
    client_secret: demo.client_secret,
    scope: 'https://graph.microsoft.com/.default',
  });
  const token = (
    (await (await fetch(`${demo.url}/${demo.tenant}/oauth2/v2.0/token`, { method: 'POST', body: form })).json()) as { access_token: string }
  ).access_token;
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${demo.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    expect(response.status, `${method} ${path}`).toBeLessThan(300);
    return response.status === 204 ? undefined : ((await response.json()) as Record<string, unknown>);
  };
}

const at = (ms: number) => ({ dateTime: new Date(ms).toISOString().slice(0, 19), timeZone: 'UTC' });

test.beforeAll(async () => {
  server = await startHeadlessConsole('', 0, '    listen: 127.0.0.1:0\n', '    listen: 127.0.0.1:0\n    demo_data: false\n');
});

test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

test('syncs 500 new events, removes deleted and moved ones, and shows a full resync after an expired token', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`${server.url}/#/calendar`);
  await expect(page.getByText('Nothing is synced yet')).toBeVisible();
  await expectAccessible(page, 'calendar, not started');
  await page.getByRole('button', { name: 'Start syncing' }).click();
  const status = page.getByTestId('sync-status');
  await expect(status).toHaveAttribute('data-state', 'idle');
  await expect(page.getByTestId('events-stored')).toHaveText('0 events in the local copy');

  const demo = await readDemoAccount(server.dataDir);
  const graph = await graphAs(demo);
  const events = `/v1.0/users/${demo.user.id}/events`;
  const tomorrow = Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 86_400_000;
  const ids: string[] = [];
  for (let i = 1; i <= 500; i++) {
    const start = tomorrow + i * 15 * 60_000;
    const created = await graph('POST', events, {
      subject: `Inspection ${String(i).padStart(3, '0')}`,
      start: at(start),
      end: at(start + 10 * 60_000),
      location: { displayName: 'Gate 4' },
    });
    ids.push(String(created!['id']));
  }

  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByTestId('events-stored')).toHaveText('500 events in the local copy', { timeout: 30_000 });
  await expect(page.getByTestId('last-round')).toContainText('+500 added');

  // Three deleted, two moved far out of the window: the next round removes five.
  for (const id of ids.slice(0, 3)) await graph('DELETE', `${events}/${id}`);
  for (const id of ids.slice(3, 5))
    await graph('PATCH', `${events}/${id}`, { start: at(tomorrow + 200 * 86_400_000), end: at(tomorrow + 200 * 86_400_000 + 600_000) });
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByTestId('last-round')).toContainText('−5 removed');
  await expect(page.getByTestId('events-stored')).toHaveText('495 events in the local copy');
  const search = page.getByRole('textbox', { name: 'Search events by subject' });
  await search.fill('Inspection 00');
  await expect(page.getByTestId('event-search').getByRole('button')).toHaveCount(4); // 006 to 009
  await search.fill('Inspection 004');
  await expect(page.getByTestId('event-search')).toContainText('No event of the local copy has “Inspection 004”');
  await search.fill('Inspection 006');
  await page
    .getByTestId('event-search')
    .getByRole('button', { name: /^Inspection 006/ })
    .click();
  const details = page.getByRole('dialog', { name: 'Inspection 006' });
  await expect(details.getByTestId('event-facts')).toContainText('Gate 4');
  await page.keyboard.press('Escape');
  await search.fill('');

  // The emulator forgets every delta token: the next round is a full resync, and says why.
  await graph('POST', '/_emulator/calendar/evict-sync-state');
  await page.getByRole('button', { name: 'Sync now' }).click();
  const history = page.getByTestId('round-history');
  await expect(history.getByRole('row').nth(1)).toContainText('full: resync after the delta token expired (410)');
  await expect(history.getByRole('row')).toHaveCount(5); // header + first, 500 added, 5 removed, resync
  await expect(page.getByTestId('events-stored')).toHaveText('495 events in the local copy');

  // The agenda of next week shows the events of the copy.
  await page.getByRole('button', { name: 'Next week' }).click();
  await expect(page.getByTestId('agenda')).toContainText('Inspection');
  await page.screenshot({ path: test.info().outputPath('calendar.png') });
  await status.screenshot({ path: test.info().outputPath('calendar-status.png') });
  await expectAccessible(page, 'calendar');
});
