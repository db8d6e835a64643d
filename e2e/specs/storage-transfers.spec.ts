import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import qiniu from 'qiniu';
import { kodoEtag } from '../../src-main/storage/kodo-etag';
import { expectAccessible } from '../fixtures/accessibility';
import { startCountingProxy, type CountingProxy } from '../fixtures/counting-proxy';
import { freePort, startHeadlessConsole, storageEmulatorYaml, type HeadlessConsole } from '../fixtures/headless-console';
import { expect, test } from '../fixtures/test';
import { StoragePage } from '../pages/storage-page';
import { TransfersPage } from '../pages/transfers-page';

// Transfers against their own console on fixed ports, so it can be killed and started again on
// the same folder. Big uploads go through an account whose endpoints are a proxy that counts
// (and slows) every part the storage service receives.
const MAIN = { ak: 'e2e-transfer-ak', sk: 'e2e-transfer-sk-secret' };
const MiB = 1024 * 1024;
const PART = 4 * MiB;

let server: HeadlessConsole;
let emulatorPort: number;
let proxy: CountingProxy;
let files: string;

function manager() {
  const host = `127.0.0.1:${emulatorPort}`;
  const config = new qiniu.conf.Config({ zone: new qiniu.conf.Zone([host], [host], host, host, host, host), useHttpsDomain: false });
  return new qiniu.rs.BucketManager(new qiniu.auth.digest.Mac(MAIN.ak, MAIN.sk), config);
}

async function stat(bucket: string, key: string): Promise<{ httpStatus: number; hash?: string; fsize?: number }> {
  const { data, resp } = (await manager().stat(bucket, key)) as { data: { hash?: string; fsize?: number }; resp: { statusCode: number } };
  return { ...data, httpStatus: resp.statusCode };
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  emulatorPort = await freePort();
  server = await startHeadlessConsole(
    '',
    await freePort(),
    storageEmulatorYaml(emulatorPort, [{ ...MAIN, buckets: [{ name: 'media', domains: ['media.localhost'] }] }]),
  );
  proxy = await startCountingProxy({ host: '127.0.0.1', port: emulatorPort });
  files = await mkdtemp(join(tmpdir(), 'relay-console-files-'));
});

test.afterAll(async () => {
  await proxy?.close();
  expect(await server?.stop()).toBe(0);
  await rm(files, { recursive: true, force: true });
});

test('a 64 MiB upload moves, pauses, resumes, survives a killed console without resending parts, and ends with the right etag', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const data = randomBytes(64 * MiB);
  const path = join(files, 'camera-dump.bin');
  await writeFile(path, data);

  // The account whose every request passes the counting proxy: a private deployment to Kodo.
  const storage = new StoragePage(page, server.url);
  await storage.open();
  await page.getByRole('button', { name: 'Add Kodo account' }).click();
  const form = storage.dialog();
  await form.getByRole('textbox', { name: 'Name' }).fill('Site archive');
  await form.getByRole('textbox', { name: 'AccessKey' }).fill(MAIN.ak);
  await form.getByLabel('SecretKey').fill(MAIN.sk);
  await form.getByText('Private deployment', { exact: true }).click();
  await form.getByRole('textbox', { name: /^uc/ }).fill(proxy.url);
  await form.getByRole('button', { name: 'Check and add' }).click();
  await page.getByTestId('buckets-table').getByRole('link', { name: 'media' }).click();
  await expect(storage.address()).toHaveValue('kodo://media/');

  // Slow parts (16 of 4 MiB), so the upload is still under way when the console is killed.
  proxy.setPartDelay(600);
  proxy.reset();
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('menuitem', { name: 'Files…' }).click();
  await (await chooser).setFiles(path);
  await expect(page.getByTestId('transfer-strip')).toContainText('1 transfer');
  await page.getByRole('link', { name: 'View transfers' }).click();

  const transfers = new TransfersPage(page);
  await transfers.expectState('camera-dump.bin', 'running');
  // The bar moves as parts reach the service.
  await expect.poll(() => transfers.percent('camera-dump.bin'), { timeout: 30_000 }).toBeGreaterThan(10);
  const moving = await transfers.percent('camera-dump.bin');
  await expect.poll(() => transfers.percent('camera-dump.bin'), { timeout: 30_000 }).toBeGreaterThan(moving);
  await expect(transfers.row('camera-dump.bin').getByTestId('transfer-detail')).toContainText(/MiB\/s/);
  await page.screenshot({ path: test.info().outputPath('transfers-running.png') });

  await transfers.button('camera-dump.bin', 'Pause').click();
  await transfers.expectState('camera-dump.bin', 'paused');
  // Checked while nothing moves, so a slow machine cannot finish the upload meanwhile.
  await expectAccessible(page, 'transfers');
  const pausedAt = await transfers.percent('camera-dump.bin');
  const storedWhilePaused = proxy.partsStored();
  expect(pausedAt).toBeLessThan(100);
  await transfers.button('camera-dump.bin', 'Resume').click();
  await transfers.expectState('camera-dump.bin', 'running');
  await expect.poll(() => proxy.partsStored(), { timeout: 30_000 }).toBeGreaterThanOrEqual(storedWhilePaused + 2);
  expect(await transfers.percent('camera-dump.bin')).toBeGreaterThanOrEqual(pausedAt);

  // The app goes away mid-upload without a chance to save anything, and is opened again.
  await page.goto('about:blank');
  await server.kill();
  const storedBeforeKill = proxy.partsStored();
  expect(storedBeforeKill).toBeLessThan(16);
  proxy.reset();
  proxy.setPartDelay(50);
  await server.relaunch();
  await page.goto(`${server.url}/#/transfers`);
  await transfers.expectState('camera-dump.bin', 'done', 'upload', 60_000);

  // Counted where the service receives them: the parts stored before the kill were not sent
  // again (the one in flight when the console died may be).
  expect(proxy.partBytes()).toBeLessThanOrEqual(data.length - (storedBeforeKill - 1) * PART);
  expect(proxy.partBytes()).toBeGreaterThan(0);
  const etag = kodoEtag(data);
  await expect(transfers.row('camera-dump.bin')).toContainText(`etag ${etag}`);
  expect(await stat('media', 'camera-dump.bin')).toMatchObject({ httpStatus: 200, hash: etag, fsize: data.length });
});

test('uploads a folder from the picker and dropped files, then downloads the folder', async ({ page }) => {
  const folder = join(files, 'site-visit');
  await mkdir(join(folder, 'day1'), { recursive: true });
  const bodies: Record<string, Buffer> = {
    'site-visit/notes.md': Buffer.from('# Site visit\n'),
    'site-visit/day1/gate.jpg': randomBytes(300_000),
    'site-visit/day1/yard.jpg': randomBytes(5 * MiB + 7),
  };
  for (const [relative, body] of Object.entries(bodies)) await writeFile(join(files, relative), body);

  const storage = new StoragePage(page, server.url);
  await storage.open('#/storage/local/media');
  await expect(storage.address()).toHaveValue('kodo://media/');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('menuitem', { name: 'Folder…' }).click();
  await (await chooser).setFiles(folder);

  // Two loose files dragged from the desktop onto the folder view.
  await page.getByTestId('storage-browser').evaluate((target) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['first dropped file'], 'dropped-1.txt', { type: 'text/plain' }));
    transfer.items.add(new File(['second dropped file'], 'dropped-2.txt', { type: 'text/plain' }));
    for (const type of ['dragenter', 'dragover', 'drop'])
      target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
  });

  await expect(storage.row('site-visit/')).toBeVisible({ timeout: 30_000 });
  await expect(storage.row('dropped-2.txt')).toBeVisible({ timeout: 30_000 });
  for (const [key, body] of Object.entries(bodies)) {
    await expect.poll(async () => (await stat('media', key)).hash, { timeout: 30_000 }).toBe(kodoEtag(body));
  }
  expect(await stat('media', 'dropped-1.txt')).toMatchObject({ httpStatus: 200, fsize: 'first dropped file'.length });

  // Download the whole folder: it lands in the downloads folder with its sub-folders.
  await storage.row('site-visit/').getByRole('checkbox').check();
  await page.getByTestId('storage-browser').getByRole('button', { name: 'Download' }).click();
  await page.getByTestId('storage-browser').getByRole('link', { name: 'Transfers', exact: true }).click();
  const transfers = new TransfersPage(page);
  for (const name of ['notes.md', 'day1/gate.jpg', 'day1/yard.jpg']) await transfers.expectState(`site-visit/${name}`, 'done', 'download');
  for (const [relative, body] of Object.entries(bodies)) {
    expect((await readFile(join(server.dataDir, 'downloads', 'media', relative))).equals(body)).toBe(true);
  }
  // A browser elsewhere than the console saves its own copy of a finished download.
  const saved = page.waitForEvent('download');
  await transfers
    .row('site-visit/day1/yard.jpg', 'download')
    .getByRole('link', { name: 'Save site-visit/day1/yard.jpg to this computer' })
    .click();
  const copy = await saved;
  expect(copy.suggestedFilename()).toBe('yard.jpg');
  expect((await readFile((await copy.path())!)).equals(bodies['site-visit/day1/yard.jpg']!)).toBe(true);
  await page.getByText('Finished', { exact: true }).click();
  await expect(transfers.row('site-visit/day1/yard.jpg', 'download')).toBeVisible();
  await page.getByRole('button', { name: 'Clear finished' }).click();
  await expect(page.getByTestId('transfers-empty')).toContainText('No transfers yet');
});
