import qiniu from 'qiniu';
import { expectAccessible } from '../fixtures/accessibility';
import { freePort, startHeadlessConsole, storageEmulatorYaml, type HeadlessConsole } from '../fixtures/headless-console';
import { expect, test } from '../fixtures/test';
import { LivePage } from '../pages/live-page';
import { TransfersPage } from '../pages/transfers-page';

// A camera that is not recorded, clipped from a tile's menu into a bucket the user picks: the
// clip is what the relay holds in memory, uploaded through the transfer queue.
const ACCOUNT = { ak: 'e2e-live-bucket-ak', sk: 'e2e-live-bucket-sk-secret' };
const CAMERA = 'ffmpeg:virtual?video=testsrc&size=640x360&fps=25#video=h264';

let server: HeadlessConsole;
let emulatorPort: number;

function listClips(): Promise<Array<{ key: string; fsize: number; mimeType: string }>> {
  const host = `127.0.0.1:${emulatorPort}`;
  const config = new qiniu.conf.Config({ zone: new qiniu.conf.Zone([host], [host], host, host, host, host), useHttpsDomain: false });
  const manager = new qiniu.rs.BucketManager(new qiniu.auth.digest.Mac(ACCOUNT.ak, ACCOUNT.sk), config);
  return manager
    .listPrefix('clips', { prefix: 'clips/door/' })
    .then(({ data }) => (data as { items: Array<{ key: string; fsize: number; mimeType: string }> }).items);
}

test.beforeAll(async () => {
  emulatorPort = await freePort();
  server = await startHeadlessConsole(
    `streams:\n  door: "${CAMERA}"\n`,
    0,
    storageEmulatorYaml(emulatorPort, [{ ...ACCOUNT, buckets: [{ name: 'clips', domains: ['clips.localhost'] }] }]),
  );
});

test.afterAll(async () => {
  expect(await server?.stop()).toBe(0);
});

test('a user clips the last seconds of a live tile into a bucket and sees the upload finish', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const live = new LivePage(page, server.url);
  await live.open();
  await expect(live.state('door')).toHaveText('live', { timeout: 30_000 });

  // From the keyboard: the tile's menu opens with Enter, the item is reached with the arrows.
  await live.tile('door').getByRole('button', { name: 'Menu of door' }).focus();
  await page.keyboard.press('Enter');
  const item = page.getByRole('menuitem', { name: 'Clip the last N seconds to bucket…' });
  await expect(item).toBeVisible();
  for (let i = 0; i < 10 && !(await item.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
  await expect(item).toBeFocused();
  await page.keyboard.press('Enter');

  const dialog = page.getByRole('dialog', { name: 'Clip the last N seconds to bucket: door' });
  await expect(dialog).toBeVisible();
  // Not recorded: the dialog says how much the relay holds in memory, and asks for a bucket.
  await expect(dialog).toContainText(/door is not recorded: the relay holds only its last \d+\.\d s in memory/);
  await dialog.getByText('30 s', { exact: true }).click();
  await expect(dialog.getByRole('textbox', { name: 'Seconds' })).toHaveValue('30');
  await dialog.getByLabel('Bucket', { exact: true }).click();
  await page.getByRole('option', { name: 'clips' }).click();
  await expect(dialog.getByLabel('Bucket', { exact: true })).toHaveValue('clips');
  await expectAccessible(page, 'the clip dialog', '[role="dialog"]');
  await page.screenshot({ path: testInfo.outputPath('clip-dialog.png') });

  await dialog.getByRole('button', { name: 'Clip to bucket' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/A clip of \d+\.\d s of door queued for upload/)).toBeVisible();

  // The transfer panel lists it as an upload that ends done.
  await page.goto(`${server.url}/#/transfers`);
  const transfers = new TransfersPage(page);
  const row = page.getByRole('list', { name: 'Transfers' }).getByRole('listitem', { name: /^clips\/door\/.+Z\.mp4$/ });
  await expect(row).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  await expect(row).toHaveAttribute('data-kind', 'upload');
  const name = (await row.getAttribute('aria-label'))!;
  expect(await transfers.percent(name)).toBe(100);

  // And the bucket holds it.
  const objects = await listClips();
  expect(objects).toEqual([expect.objectContaining({ key: name, mimeType: 'video/mp4' })]);
  expect(objects[0]!.fsize).toBeGreaterThan(1000);

  // The bucket is remembered: the next snapshot's dialog offers it first.
  await page.goto(`${server.url}/#/live`);
  await live.tile('door').getByRole('button', { name: 'Menu of door' }).click();
  await page.getByRole('menuitem', { name: 'Snapshot to bucket…' }).click();
  const snapshot = page.getByRole('dialog', { name: 'Snapshot to bucket: door' });
  await expect(snapshot.getByLabel('Bucket', { exact: true })).toHaveValue('clips');
  await snapshot.getByRole('button', { name: 'Cancel' }).click();
  await expect(snapshot).toBeHidden();
});
