import { request } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import qiniu from 'qiniu';
import { expectAccessible } from '../fixtures/accessibility';
import { freePort, startHeadlessConsole, type HeadlessConsole } from '../fixtures/headless-console';
import { expect, test } from '../fixtures/test';
import { StoragePage } from '../pages/storage-page';

// The storage section against its own console, whose emulator has two accounts: the console's
// (buckets media and vault) and a partner's, added through the account form.
const MAIN = { ak: 'e2e-main-ak', sk: 'e2e-main-sk-secret' };
const PARTNER = { ak: 'e2e-partner-ak', sk: 'e2e-partner-sk-never-shown' };

let server: HeadlessConsole;
let emulatorPort: number;

function sdk() {
  const mac = new qiniu.auth.digest.Mac(MAIN.ak, MAIN.sk);
  const host = `127.0.0.1:${emulatorPort}`;
  const config = new qiniu.conf.Config({ zone: new qiniu.conf.Zone([host], [host], host, host, host, host), useHttpsDomain: false });
  return { mac, config, manager: new qiniu.rs.BucketManager(mac, config) };
}

async function put(bucket: string, key: string, body: Buffer): Promise<void> {
  const { mac, config } = sdk();
  const token = new qiniu.rs.PutPolicy({ scope: `${bucket}:${key}` }).uploadToken(mac);
  const { resp } = await new qiniu.form_up.FormUploader(config).put(token, key, body, new qiniu.form_up.PutExtra());
  expect(resp.statusCode).toBe(200);
}

/** Many keys in few requests: batch copies of one object, 1000 per request. */
async function copies(bucket: string, source: string, keys: string[]): Promise<void> {
  const { manager } = sdk();
  for (let i = 0; i < keys.length; i += 1000) {
    const { resp } = await manager.batch(keys.slice(i, i + 1000).map((key) => qiniu.rs.copyOp(bucket, source, bucket, key, { force: true })));
    expect(resp.statusCode).toBe(200);
  }
}

/** The emulator's own listing of every key under a prefix. */
async function listAll(bucket: string, prefix: string): Promise<Array<{ key: string; fsize: number }>> {
  const { manager } = sdk();
  const items: Array<{ key: string; fsize: number }> = [];
  let marker: string | undefined;
  do {
    const { data } = (await manager.listPrefix(bucket, { prefix, limit: 1000, ...(marker ? { marker } : {}) })) as { data: { items: Array<{ key: string; fsize: number }>; marker?: string } };
    items.push(...data.items);
    marker = data.marker || undefined;
  } while (marker);
  return items;
}

/** GET through the emulator's port with the link's host as Host, as a browser resolving *.localhost would. */
function download(link: string): Promise<{ status: number; body: string }> {
  const url = new URL(link);
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port: Number(url.port), path: url.pathname + url.search, headers: { Host: url.host } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  emulatorPort = await freePort();
  server = await startHeadlessConsole(
    '',
    0,
    [
      `    listen: 127.0.0.1:${emulatorPort}`,
      '    accounts:',
      `      - access_key: ${MAIN.ak}`,
      `        secret_key: ${MAIN.sk}`,
      '        buckets:',
      '          - name: media',
      '            domains: [media.localhost]',
      '          - name: vault',
      '            private: true',
      '            domains: [vault.localhost]',
      `      - access_key: ${PARTNER.ak}`,
      `        secret_key: ${PARTNER.sk}`,
      '        buckets:',
      '          - name: partner-files',
      '',
    ].join('\n'),
  );
});

test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

test('browses a bucket of 10,000 objects, sorts the folder by size and counts it', async ({ page }) => {
  // 10,000 small copies and twenty files of distinct sizes, one of them in a sub-folder.
  await put('media', 'clips/seed.txt', Buffer.from('seed'));
  await copies('media', 'clips/seed.txt', Array.from({ length: 9_979 }, (_, i) => `clips/c-${String(i).padStart(5, '0')}.txt`));
  for (let i = 1; i <= 19; i++) await put('media', `clips/sized-${i}.bin`, Buffer.alloc(i * 1500, i));
  await put('media', 'clips/raw/biggest.bin', Buffer.alloc(40_000, 7));
  const truth = await listAll('media', 'clips/');
  expect(truth).toHaveLength(10_000);
  const largestFile = truth.filter((o) => !o.key.startsWith('clips/raw/')).sort((a, b) => b.fsize - a.fsize)[0]!;
  const totalBytes = truth.reduce((sum, o) => sum + o.fsize, 0);

  const storage = new StoragePage(page, server.url);
  await storage.open();
  await expect(page.getByTestId('accounts-table')).toContainText('Local storage (emulator)');
  await expectAccessible(page, 'storage accounts');
  await page.getByRole('link', { name: 'Local storage (emulator)' }).click();
  await expect(page.getByTestId('buckets-table').locator('tr[data-bucket="vault"]')).toContainText('Private');
  await expectAccessible(page, 'storage buckets');
  await page.getByRole('link', { name: 'media', exact: true }).click();
  await expect(storage.address()).toHaveValue('kodo://media/');
  await storage.row('clips/').getByRole('button').click();
  await expect(storage.address()).toHaveValue('kodo://media/clips/');
  // The service's order first, a page of 1000 at a time as the user scrolls (clips/raw/ sorts
  // after every c-… key, so Kodo lists it in a later page).
  await expect(storage.row('clips/c-00000.txt')).toBeVisible();
  await expect(page.getByText('1,000 rows loaded; more load as you scroll.')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('storage-folder.png') });

  await storage.sortBy('Size');
  await expect(storage.indexText()).toHaveText(`10,000 files · ${(totalBytes / 1024).toFixed(0)} KiB including sub-folders`, { timeout: 30_000 });
  // Folders first, by their total size; then the largest file really is the largest.
  await expect.poll(() => storage.firstRowKey()).toBe('clips/raw/');
  await expect(storage.table().locator('tbody tr[data-row-index="1"]')).toHaveAttribute('data-key', largestFile.key);
  await expect(storage.row('clips/raw/')).toContainText('Folder · 1 file');
  await expect(storage.table().getByRole('columnheader', { name: 'Size' })).toHaveAttribute('aria-sort', 'descending');

  // The end of the folder is one key press away, read from the index page by page.
  await storage.row('clips/raw/').getByRole('button').focus();
  await page.keyboard.press('End');
  await expect(storage.table().locator('tbody tr[data-row-index="9999"]')).toHaveAttribute('data-key', /^clips\/(seed|c-\d+)\.txt$/);
  await page.screenshot({ path: test.info().outputPath('storage-sorted.png') });
  await expectAccessible(page, 'storage browser');

  // Prefix search inside the sorted folder.
  await page.getByRole('textbox', { name: 'Search this folder by name prefix' }).fill('sized-1');
  await expect(storage.table().locator('tbody tr[data-key]')).toHaveCount(11);
});

test('renames, moves and deletes a folder of 2,500 objects with progress', async ({ page }) => {
  await put('media', 'album/seed.jpg', Buffer.from('jpeg'));
  await copies('media', 'album/seed.jpg', Array.from({ length: 2_499 }, (_, i) => `album/p-${i}.jpg`));
  const storage = new StoragePage(page, server.url);
  await storage.open('#/storage/local/media');
  await storage.row('album/').getByRole('checkbox').check();

  await storage.toolbarButton('Rename').click();
  await storage.dialog().getByRole('textbox', { name: 'New name' }).fill('trip');
  await storage.dialog().getByRole('button', { name: 'Rename' }).click();
  await expect(storage.batch('Rename album/ to trip')).toContainText('Done · 2,500 of 2,500');
  await expect(storage.row('trip/')).toBeVisible();
  await expect(storage.row('album/')).toHaveCount(0);
  expect(await listAll('media', 'album/')).toHaveLength(0);
  expect(await listAll('media', 'trip/')).toHaveLength(2_500);

  await storage.row('trip/').getByRole('checkbox').check();
  await storage.toolbarButton('Move').click();
  await storage.dialog().getByRole('textbox', { name: 'To folder' }).fill('archive/2026');
  await storage.dialog().getByRole('button', { name: 'Move' }).click();
  await expect(storage.batch('Move 1 item to media/archive/2026/')).toContainText('Done · 2,500 of 2,500');
  expect(await listAll('media', 'archive/2026/trip/')).toHaveLength(2_500);

  await storage.address().fill('kodo://media/archive/2026/');
  await storage.address().press('Enter');
  await storage.row('archive/2026/trip/').getByRole('checkbox').check();
  await page.keyboard.press('Delete');
  await expect(storage.dialog()).toContainText('“trip” and every object in it will be deleted');
  await storage.dialog().getByRole('button', { name: 'Delete' }).click();
  await expect(storage.batch('Delete 1 item from media')).toContainText('Done · 2,500 of 2,500');
  expect(await listAll('media', 'archive/')).toHaveLength(0);
  await expect(page.getByTestId('folder-empty')).toBeVisible();

  // Back and forward walk the folders visited; up goes to the parent.
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(storage.address()).toHaveValue('kodo://media/');
  await page.getByRole('button', { name: 'Forward' }).click();
  await expect(storage.address()).toHaveValue('kodo://media/archive/2026/');
  await page.getByRole('button', { name: 'Up one folder' }).click();
  await expect(storage.address()).toHaveValue('kodo://media/archive/');
});

test('a private link downloads the object and fails after its expiry', async ({ page }) => {
  await put('vault', 'contracts/plan.txt', Buffer.from('the plan'));
  const storage = new StoragePage(page, server.url);
  await storage.open('#/storage/local/vault/contracts/');
  await storage.row('contracts/plan.txt').getByRole('button').click();
  const details = page.getByRole('dialog', { name: 'contracts/plan.txt' });
  await expect(details.getByTestId('object-facts')).toContainText('8 B (8 bytes)');
  await details.getByText('Custom', { exact: true }).click();
  await details.getByRole('textbox', { name: 'Expires after' }).fill('3s');
  await details.getByRole('button', { name: 'Create link' }).click();
  const link = (await details.getByTestId('download-link').locator('code').textContent()) ?? '';
  expect(link).toMatch(new RegExp(`^http://vault\\.localhost:${emulatorPort}/contracts/plan\\.txt\\?e=\\d+&token=`));
  expect(await download(link)).toEqual({ status: 200, body: 'the plan' });
  await page.screenshot({ path: test.info().outputPath('storage-details.png') });
  await expectAccessible(page, 'object details');
  await expect.poll(async () => (await download(link)).status, { timeout: 10_000, intervals: [1000] }).toBe(401);
});

test('a Kodo account is added only after its keys list buckets, and its SecretKey stays sealed in main', async ({ page }) => {
  const received: string[] = [];
  page.on('websocket', (socket) => socket.on('framereceived', (frame) => received.push(String(frame.payload))));
  const storage = new StoragePage(page, server.url);
  await storage.open();
  await page.getByRole('button', { name: 'Add Kodo account' }).click();
  const form = storage.dialog();
  await form.getByRole('button', { name: 'Check and add' }).click();
  await expect(form).toContainText('the AccessKey is required');

  await form.getByRole('textbox', { name: 'Name' }).fill('Partner');
  await form.getByRole('textbox', { name: 'AccessKey' }).fill(PARTNER.ak);
  await form.getByLabel('SecretKey').fill('not-the-secret');
  await form.getByText('Private deployment', { exact: true }).click();
  await form.getByRole('textbox', { name: /^uc/ }).fill('not a url');
  await form.getByRole('button', { name: 'Check and add' }).click();
  await expect(form).toContainText('expected an http(s) URL');
  await form.getByRole('textbox', { name: /^uc/ }).fill(`http://127.0.0.1:${emulatorPort}`);
  await form.getByRole('button', { name: 'Check and add' }).click();
  await expect(form.getByRole('alert')).toContainText('Kodo 401');
  await page.screenshot({ path: test.info().outputPath('storage-account-form.png') });
  await expectAccessible(page, 'account form');

  await form.getByLabel('SecretKey').fill(PARTNER.sk);
  await form.getByRole('button', { name: 'Check and add' }).click();
  await expect(page.getByTestId('buckets-table').locator('tr[data-bucket="partner-files"]')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Partner' })).toBeVisible();

  const accounts = await readFile(join(server.dataDir, 'storage', 'accounts.json'), 'utf8');
  expect(accounts).toContain(PARTNER.ak);
  expect(accounts).not.toContain(PARTNER.sk);
  expect((await readFile(join(server.dataDir, 'storage', 'account-keys.sealed'))).includes(Buffer.from(PARTNER.sk))).toBe(false);
  expect(await readFile(server.configPath, 'utf8')).not.toContain('Partner');
  expect(received.length).toBeGreaterThan(0);
  expect(received.join('\n')).not.toContain(PARTNER.sk);
  expect(await page.content()).not.toContain(PARTNER.sk);
});
