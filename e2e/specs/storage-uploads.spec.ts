import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Route } from '@playwright/test';
import qiniu from 'qiniu';
import { kodoEtag } from '../../src-main/storage/kodo-etag';
import { expectAccessible } from '../fixtures/accessibility';
import { freePort, startHeadlessConsole, storageEmulatorYaml, type HeadlessConsole } from '../fixtures/headless-console';
import { expect, test } from '../fixtures/test';
import { StoragePage } from '../pages/storage-page';
import { TransfersPage } from '../pages/transfers-page';

// Uploads that were interrupted, uploads over names already taken, and "select all" of a folder
// bigger than what the table loads, against their own console and emulator (bucket media).
const MAIN = { ak: 'e2e-uploads-ak', sk: 'e2e-uploads-sk-secret' };
const MiB = 1024 * 1024;

let server: HeadlessConsole;
let emulatorPort: number;
let files: string;

function sdk() {
  const mac = new qiniu.auth.digest.Mac(MAIN.ak, MAIN.sk);
  const host = `127.0.0.1:${emulatorPort}`;
  const config = new qiniu.conf.Config({ zone: new qiniu.conf.Zone([host], [host], host, host, host, host), useHttpsDomain: false });
  return { mac, config, manager: new qiniu.rs.BucketManager(mac, config) };
}

async function put(key: string, body: Buffer): Promise<void> {
  const { mac, config } = sdk();
  const token = new qiniu.rs.PutPolicy({ scope: `media:${key}` }).uploadToken(mac);
  const { resp } = await new qiniu.form_up.FormUploader(config).put(token, key, body, new qiniu.form_up.PutExtra());
  expect(resp.statusCode).toBe(200);
}

/** What the emulator itself holds under a key: its etag and size, or 612 when there is none. */
async function stat(key: string): Promise<{ httpStatus: number; hash?: string; fsize?: number }> {
  const { data, resp } = (await sdk().manager.stat('media', key)) as {
    data: { hash?: string; fsize?: number };
    resp: { statusCode: number };
  };
  return { ...data, httpStatus: resp.statusCode };
}

/** The emulator's own listing of every key under a prefix. */
async function listAll(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let marker: string | undefined;
  do {
    const { data } = (await sdk().manager.listPrefix('media', { prefix, limit: 1000, ...(marker ? { marker } : {}) })) as {
      data: { items: Array<{ key: string }>; marker?: string };
    };
    keys.push(...data.items.map((i) => i.key));
    marker = data.marker || undefined;
  } while (marker);
  return keys;
}

/** Many keys in few requests: batch operations, 1000 per request. */
async function batch(ops: string[]): Promise<void> {
  for (let i = 0; i < ops.length; i += 1000) {
    const { resp } = await sdk().manager.batch(ops.slice(i, i + 1000));
    expect(resp.statusCode).toBe(200);
  }
}

async function removeAll(prefix: string): Promise<void> {
  await batch((await listAll(prefix)).map((key) => qiniu.rs.deleteOp('media', key)));
}

async function clearFinishedTransfers(transfers: TransfersPage): Promise<void> {
  await transfers.page.goto(`${server.url}/#/transfers`);
  await transfers.page.getByRole('button', { name: 'Clear finished' }).click();
  await expect(transfers.page.getByTestId('transfers-empty')).toContainText('No transfers yet');
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  emulatorPort = await freePort();
  server = await startHeadlessConsole(
    '',
    0,
    storageEmulatorYaml(emulatorPort, [{ ...MAIN, buckets: [{ name: 'media', domains: ['media.localhost'] }] }]),
  );
  files = await mkdtemp(join(tmpdir(), 'relay-console-uploads-'));
});

test.afterAll(async () => {
  expect(await server?.stop()).toBe(0);
  await rm(files, { recursive: true, force: true });
});

test('an upload paused while being read, then reloaded, asks for its file again and finishes from where it was', async ({ page }) => {
  test.setTimeout(120_000);
  const data = randomBytes(20 * MiB);
  const path = join(files, 'big-clip.bin');
  await writeFile(path, data);
  // A file of the same name that is not the same file: it must be refused.
  await mkdir(join(files, 'other'), { recursive: true });
  const impostor = join(files, 'other', 'big-clip.bin');
  await writeFile(impostor, randomBytes(3 * MiB));

  // Every range the page sends to the console is seen; the one starting at a given byte can be
  // held on its way, so the user pauses while the console is still reading the file.
  const ranges: string[] = [];
  let hold: { from: number; take(route: Route): void } | undefined;
  await page.route('**/console/transfers/**', async (route) => {
    if (route.request().method() === 'PUT') {
      const range = route.request().headers()['content-range'] ?? '';
      ranges.push(range);
      if (hold && range.startsWith(`bytes ${hold.from}-`)) {
        const { take } = hold;
        hold = undefined;
        return take(route);
      }
    }
    await route.continue();
  });
  const rangeFrom = (from: number) => new Promise<Route>((take) => (hold = { from, take }));
  const release = async (route: Route) => {
    const answered = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/console/transfers/'));
    await route.continue();
    // The console answers that the upload is paused: the page keeps the file and stops.
    expect(await (await answered).json()).toMatchObject({ paused: true, received: 8 * MiB });
  };

  const storage = new StoragePage(page, server.url);
  await storage.open('#/storage/local/media');
  await expect(storage.address()).toHaveValue('kodo://media/');
  const second = rangeFrom(8 * MiB);
  await storage.uploadFiles([path]);
  await page.getByTestId('storage-browser').getByRole('link', { name: 'Transfers', exact: true }).click();
  const transfers = new TransfersPage(page);

  // Paused while the console is reading the file (its second range is on the way).
  const held = await second;
  await transfers.expectState('big-clip.bin', 'receiving');
  await expect(transfers.row('big-clip.bin').getByTestId('transfer-detail')).toContainText('8.0 MiB of 20 MiB read by the console');
  await transfers.button('big-clip.bin', 'Pause').click();
  await transfers.expectState('big-clip.bin', 'paused');
  await release(held);

  // Resumed in the same page, it goes on; paused again while being read.
  const third = rangeFrom(8 * MiB);
  await transfers.button('big-clip.bin', 'Resume').click();
  const heldAgain = await third;
  await transfers.expectState('big-clip.bin', 'receiving');
  await transfers.button('big-clip.bin', 'Pause').click();
  await transfers.expectState('big-clip.bin', 'paused');
  await release(heldAgain);

  // The page is reloaded: its file is gone. The row says so, and the header does not call it waiting.
  await page.reload();
  await transfers.expectState('big-clip.bin', 'needs-file');
  await expect(transfers.row('big-clip.bin')).toContainText('The console can no longer read this file: choose it again to continue.');
  await expect(transfers.row('big-clip.bin').getByTestId('transfer-detail')).toContainText('8.0 MiB of 20 MiB already with the console');
  await expect(transfers.totals()).toContainText('1 needs its file again');
  await expect(transfers.totals()).not.toContainText('waiting');
  await expectAccessible(page, 'transfers with an upload that needs its file');
  await page.screenshot({ path: test.info().outputPath('upload-needs-file.png') });

  // Another file of the same name is refused with what differs.
  await transfers.chooseAgain('big-clip.bin', impostor);
  await expect(transfers.row('big-clip.bin')).toContainText('“big-clip.bin” has 3.0 MiB; the upload started with 20 MiB');
  await transfers.expectState('big-clip.bin', 'needs-file');
  await page.screenshot({ path: test.info().outputPath('upload-wrong-file.png') });

  // The same file goes on from the bytes the console already holds, not from the start.
  const sentBefore = ranges.length;
  await transfers.chooseAgain('big-clip.bin', path);
  await transfers.expectState('big-clip.bin', 'done', 'upload', 60_000);
  expect(ranges[sentBefore]).toBe(`bytes ${8 * MiB}-${16 * MiB - 1}/${20 * MiB}`);
  expect(ranges.slice(sentBefore)).toHaveLength(2);
  await expect(transfers.row('big-clip.bin')).toContainText(`etag ${kodoEtag(data)}`);
  expect(await stat('big-clip.bin')).toMatchObject({ httpStatus: 200, hash: kodoEtag(data), fsize: data.length });

  await page.unroute('**/console/transfers/**');
  await removeAll('big-clip.bin');
  await clearFinishedTransfers(transfers);
});

test('uploading over names already taken asks: overwrite, skip, keep both, or the same for all', async ({ page }) => {
  const mine = join(files, 'mine');
  await mkdir(mine, { recursive: true });
  const bodies = {
    'report.txt': Buffer.from('report, second draft\n'),
    'photo.jpg': randomBytes(40_000),
    'notes.md': Buffer.from('# new notes\n'),
    'fresh.txt': Buffer.from('new file\n'),
  };
  for (const [name, body] of Object.entries(bodies)) await writeFile(join(mine, name), body);
  const stored = { report: Buffer.from('report, first draft\n'), photo: randomBytes(30_000), notes: Buffer.from('# old notes\n') };
  await put('inbox/report.txt', stored.report);
  await put('inbox/photo.jpg', stored.photo);
  await put('inbox/photo (1).jpg', randomBytes(10));
  await put('inbox/notes.md', stored.notes);

  const storage = new StoragePage(page, server.url);
  await storage.open('#/storage/local/media/inbox/');
  await expect(storage.address()).toHaveValue('kodo://media/inbox/');
  await storage.uploadFiles(['report.txt', 'photo.jpg', 'notes.md', 'fresh.txt'].map((name) => join(mine, name)));

  // One question per conflict, in order, each with its place in the batch.
  const dialog = storage.conflictDialog();
  await expect(dialog).toContainText('report.txt already exists in kodo://media/inbox/.');
  await expect(dialog.getByTestId('conflict-progress')).toHaveText('Conflict 1 of 3');
  await expect(dialog.getByRole('checkbox', { name: 'Apply to all 3 conflicts left' })).not.toBeChecked();
  await expectAccessible(page, 'the upload conflict dialog');
  await page.screenshot({ path: test.info().outputPath('upload-conflict.png') });
  await dialog.getByRole('button', { name: 'Overwrite' }).click();
  await expect(dialog).toContainText('photo.jpg already exists');
  await expect(dialog.getByTestId('conflict-progress')).toHaveText('Conflict 2 of 3');
  await dialog.getByRole('button', { name: 'Keep both' }).click();
  await expect(dialog).toContainText('notes.md already exists');
  await expect(dialog.getByRole('checkbox')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Skip' }).click();
  await expect(dialog).toBeHidden();

  // What the service holds: overwritten, kept beside under the first free number, untouched, new.
  await expect.poll(async () => (await stat('inbox/report.txt')).hash, { timeout: 30_000 }).toBe(kodoEtag(bodies['report.txt']));
  await expect.poll(async () => (await stat('inbox/photo (2).jpg')).hash, { timeout: 30_000 }).toBe(kodoEtag(bodies['photo.jpg']));
  await expect.poll(async () => (await stat('inbox/fresh.txt')).hash, { timeout: 30_000 }).toBe(kodoEtag(bodies['fresh.txt']));
  expect((await stat('inbox/photo.jpg')).hash).toBe(kodoEtag(stored.photo));
  expect((await stat('inbox/notes.md')).hash).toBe(kodoEtag(stored.notes));
  await expect(storage.row('inbox/photo (2).jpg')).toBeVisible();

  // A second batch answers every conflict at once.
  await storage.uploadFiles(['report.txt', 'fresh.txt'].map((name) => join(mine, name)));
  await expect(dialog.getByTestId('conflict-progress')).toHaveText('Conflict 1 of 2');
  await dialog.getByRole('checkbox', { name: 'Apply to all 2 conflicts left' }).check();
  await dialog.getByRole('button', { name: 'Keep both' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(async () => (await stat('inbox/report (1).txt')).hash, { timeout: 30_000 }).toBe(kodoEtag(bodies['report.txt']));
  await expect.poll(async () => (await stat('inbox/fresh (1).txt')).hash, { timeout: 30_000 }).toBe(kodoEtag(bodies['fresh.txt']));
  expect((await listAll('inbox/')).sort()).toEqual([
    'inbox/fresh (1).txt',
    'inbox/fresh.txt',
    'inbox/notes.md',
    'inbox/photo (1).jpg',
    'inbox/photo (2).jpg',
    'inbox/photo.jpg',
    'inbox/report (1).txt',
    'inbox/report.txt',
  ]);

  await removeAll('inbox/');
  await clearFinishedTransfers(new TransfersPage(page));
});

test('select all in a folder selects every object the service holds there, and deletes them all', async ({ page }) => {
  // 261 objects under many/ (one in a sub-folder), made in a few batch copies, and one elsewhere.
  await put('many/seed.bin', Buffer.from('seed'));
  await put('keep/outside.txt', Buffer.from('stays'));
  await batch(
    [...Array.from({ length: 259 }, (_, i) => `many/f-${String(i).padStart(3, '0')}.bin`), 'many/sub/deep.bin'].map((key) =>
      qiniu.rs.copyOp('media', 'many/seed.bin', 'media', key, { force: true }),
    ),
  );
  expect(await listAll('many/')).toHaveLength(261);

  const storage = new StoragePage(page, server.url);
  await storage.open('#/storage/local/media/many/');
  await expect(storage.row('many/f-000.bin')).toBeVisible();
  await storage.selectAllCheckbox().check();
  await expect(storage.selectionBar()).toContainText('All 261 objects in many/ are selected, sub-folders included');
  await expect(storage.row('many/f-000.bin')).toHaveAttribute('aria-selected', 'true');
  await expectAccessible(page, 'a folder with everything selected');
  await page.screenshot({ path: test.info().outputPath('select-all.png') });

  await page.getByTestId('storage-browser').getByRole('button', { name: 'Delete all' }).click();
  await expect(storage.dialog()).toContainText('All 261 objects in many/, sub-folders included, will be deleted.');
  await page.screenshot({ path: test.info().outputPath('select-all-delete.png') });
  await storage.dialog().getByRole('button', { name: 'Delete' }).click();
  await expect(storage.batch('Delete everything in many/ from media')).toContainText('Done · 261 of 261', { timeout: 30_000 });
  await expect(storage.selectionBar()).toBeHidden();

  expect(await listAll('many/')).toEqual([]);
  expect(await stat('keep/outside.txt')).toMatchObject({ httpStatus: 200 });
  await removeAll('keep/');
});
