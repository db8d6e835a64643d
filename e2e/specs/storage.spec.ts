import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import qiniu from 'qiniu';
import sharp from 'sharp';
import { expectAccessible } from '../fixtures/accessibility';
import { freePort, startHeadlessConsole, storageEmulatorYaml, type HeadlessConsole } from '../fixtures/headless-console';
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
    const { resp } = await manager.batch(
      keys.slice(i, i + 1000).map((key) => qiniu.rs.copyOp(bucket, source, bucket, key, { force: true })),
    );
    expect(resp.statusCode).toBe(200);
  }
}

/** What the emulator itself says of one object. */
async function stat(bucket: string, key: string): Promise<{ mimeType: string; fsize: number; hash: string }> {
  const { data, resp } = (await sdk().manager.stat(bucket, key)) as {
    data: { mimeType: string; fsize: number; hash: string };
    resp: { statusCode: number };
  };
  expect(resp.statusCode).toBe(200);
  return data;
}

/** The emulator's own listing of every key under a prefix. */
async function listAll(bucket: string, prefix: string): Promise<Array<{ key: string; fsize: number }>> {
  const { manager } = sdk();
  const items: Array<{ key: string; fsize: number }> = [];
  let marker: string | undefined;
  do {
    const { data } = (await manager.listPrefix(bucket, { prefix, limit: 1000, ...(marker ? { marker } : {}) })) as {
      data: { items: Array<{ key: string; fsize: number }>; marker?: string };
    };
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
    storageEmulatorYaml(emulatorPort, [
      {
        ...MAIN,
        buckets: [
          { name: 'media', domains: ['media.localhost'] },
          { name: 'vault', private: true, domains: ['vault.localhost'] },
          { name: 'site', domains: ['site.localhost'] },
        ],
      },
      { ...PARTNER, buckets: [{ name: 'partner-files' }] },
    ]),
  );
});

test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

test('browses a bucket of 10,000 objects, sorts the folder by size and counts it', async ({ page }) => {
  // 10,000 small copies and twenty files of distinct sizes, one of them in a sub-folder.
  await put('media', 'clips/seed.txt', Buffer.from('seed'));
  await copies(
    'media',
    'clips/seed.txt',
    Array.from({ length: 9_979 }, (_, i) => `clips/c-${String(i).padStart(5, '0')}.txt`),
  );
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
  await expect(storage.indexText()).toHaveText(`10,000 files · ${(totalBytes / 1024).toFixed(0)} KiB including sub-folders`, {
    timeout: 30_000,
  });
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
  await copies(
    'media',
    'album/seed.jpg',
    Array.from({ length: 2_499 }, (_, i) => `album/p-${i}.jpg`),
  );
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

test('previews an image, a video and text in the details panel, all from the console origin', async ({ page }) => {
  const clip = join(server.dataDir, '..', 'clip.mp4');
  await promisify(execFile)('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=640x360:rate=25:duration=2',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    '-y',
    clip,
  ]);
  await put('media', 'preview/gate.mp4', await readFile(clip));
  await put(
    'vault',
    'preview/wide.png',
    await sharp({ create: { width: 1920, height: 1080, channels: 3, background: { r: 20, g: 90, b: 160 } } })
      .png()
      .toBuffer(),
  );
  await put('media', 'preview/README.md', Buffer.from('# Site notes\n\n- gate camera moved\n'));
  await put('media', 'preview/page.html', Buffer.from('<script>document.title = "owned"</script>'));
  const storage = new StoragePage(page, server.url);

  // A private bucket's image: a thumbnail made by the service, no larger than the panel needs.
  await storage.open('#/storage/local/vault/preview/');
  await storage.row('preview/wide.png').getByRole('button').click();
  const image = page.getByRole('dialog', { name: 'preview/wide.png' }).getByRole('img', { name: 'Preview of preview/wide.png' });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([960, 540]);
  expect(await image.getAttribute('src')).toMatch(new RegExp(`^${server.url}/console/preview/`));
  await page.keyboard.press('Escape');

  await storage.open('#/storage/local/media/preview/');
  await storage.row('preview/gate.mp4').getByRole('button').click();
  const video = page.getByRole('dialog', { name: 'preview/gate.mp4' });
  await expect
    .poll(() => video.getByRole('img', { name: 'First frame of preview/gate.mp4' }).evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBe(960);
  await video.getByRole('button', { name: 'Play' }).click();
  const player = video.getByTestId('video-preview');
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBe(640);
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.2);
  await page.screenshot({ path: test.info().outputPath('storage-preview-video.png') });

  // Persistent processing from the same panel: a typed command is checked where it is typed,
  // a preset runs, is followed to the end, and its result opens.
  await video.getByLabel('Make').click();
  await page.getByRole('option', { name: 'Custom command…' }).click();
  await video.getByRole('textbox', { name: 'Command' }).fill('avthumb/mp4|saveas/bWVkaWE6eA==');
  await video.getByRole('button', { name: 'Run' }).click();
  await expect(video).toContainText('no spaces and no |');
  await video.getByLabel('Make').click();
  await page.getByRole('option', { name: 'Frame at 1 s as JPEG' }).click();
  await expect(video.getByRole('textbox', { name: 'Save as (in media)' })).toHaveValue('preview/gate-frame.jpg');
  await video.getByRole('button', { name: 'Run' }).click();
  await expect(video.getByTestId('processing-job')).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  await video.getByRole('button', { name: 'Open result' }).click();
  const result = page.getByRole('dialog', { name: 'preview/gate-frame.jpg' });
  await expect(result.getByTestId('object-facts')).toContainText('image/jpeg');
  await expect
    .poll(() =>
      result.getByRole('img', { name: 'Preview of preview/gate-frame.jpg' }).evaluate((img: HTMLImageElement) => img.naturalWidth),
    )
    .toBe(640);
  expect((await stat('media', 'preview/gate-frame.jpg')).mimeType).toBe('image/jpeg');
  await page.keyboard.press('Escape');

  await storage.row('preview/README.md').getByRole('button').click();
  const notes = page.getByRole('dialog', { name: 'preview/README.md' });
  await expect(notes.getByTestId('markdown-preview').getByRole('heading', { name: 'Site notes' })).toBeVisible();
  await expect(notes.getByTestId('markdown-preview').getByRole('listitem')).toHaveText('gate camera moved');
  await expectAccessible(page, 'markdown preview');
  await page.keyboard.press('Escape');

  // An HTML object is shown as its text and never runs in the console.
  await storage.row('preview/page.html').getByRole('button').click();
  await expect(page.getByRole('dialog', { name: 'preview/page.html' }).getByTestId('text-preview')).toHaveText(
    '<script>document.title = "owned"</script>',
  );
  expect(await page.title()).not.toBe('owned');
});

test('refreshes and prefetches CDN URLs within the limits, charts the flux and lists the access logs', async ({ page }) => {
  await put('site', 'cdn/probe.bin', Buffer.alloc(300_000, 3));
  for (let i = 0; i < 2; i++) expect((await download(`http://site.localhost:${emulatorPort}/cdn/probe.bin`)).status).toBe(200);
  const storage = new StoragePage(page, server.url);
  await storage.open('#/storage/local');
  await page.getByRole('tab', { name: 'CDN' }).click();

  const box = page.getByRole('textbox', { name: 'URLs and folders to refresh, one per line' });
  await expect(page.getByTestId('cdn-limits')).toContainText('up to 100 URLs and 10 folders');
  await box.fill(Array.from({ length: 101 }, (_, i) => `http://site.localhost/${i}.jpg`).join('\n'));
  await expect(page.getByText('101 URLs: at most 100 go in one request')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Refresh/ })).toBeDisabled();
  await box.fill('http://site.localhost/cdn/probe.bin\nhttp://elsewhere.example/x.jpg');
  await page.getByRole('button', { name: 'Refresh 2' }).click();
  await expect(page.getByTestId('cdn-result')).toContainText('1 entry accepted');
  await expect(page.getByTestId('cdn-result')).toContainText('Refused: http://elsewhere.example/x.jpg');
  await expect(page.getByTestId('cdn-limits')).toContainText('Left today: 499 of 500 URL refreshes');

  await page.getByText('Prefetch', { exact: true }).click();
  const prefetch = page.getByRole('textbox', { name: 'URLs to prefetch, one per line' });
  await prefetch.fill('http://site.localhost/cdn/');
  await expect(page.getByText('Folders cannot be prefetched: name each file')).toBeVisible();
  await prefetch.fill('http://site.localhost/cdn/probe.bin');
  await page.getByRole('button', { name: 'Prefetch 1' }).click();
  await expect(page.getByTestId('cdn-result')).toContainText('1 entry accepted');

  // Flux of the one domain: exactly the two downloads above.
  const traffic = page.getByRole('region', { name: 'Traffic' });
  const domains = traffic.getByLabel('Domains');
  // From the keyboard, as in any multi-select: Backspace takes the last domain off, arrows open the list.
  await domains.focus();
  for (let i = 0; i < 3; i++) await domains.press('Backspace');
  await expect(traffic.getByText('Choose at least one domain.')).toBeVisible();
  await domains.press('ArrowDown');
  await page.getByRole('option', { name: 'site.localhost' }).click();
  await page.keyboard.press('Escape');
  await expect(traffic.getByTestId('traffic-summary')).toContainText('586 KiB served from');
  await expect(traffic.getByTestId('traffic-chart').locator('canvas')).toBeVisible();
  await page.getByText('Bandwidth', { exact: true }).click();
  await expect(traffic.getByTestId('traffic-summary')).toContainText(/^Peak [\d.]+ (bit|kbit|Mbit)\/s at /);
  await page.screenshot({ path: test.info().outputPath('storage-cdn.png'), fullPage: true });
  await expectAccessible(page, 'CDN');

  const logs = page.getByTestId('cdn-logs');
  const siteLog = logs.getByRole('row').filter({ hasText: 'site.localhost' }).first().getByRole('link');
  const logUrl = (await siteLog.getAttribute('href')) ?? '';
  const log = await new Promise<Buffer>((resolve, reject) =>
    request(logUrl, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(Buffer.concat(chunks)));
    })
      .on('error', reject)
      .end(),
  );
  expect(gunzipSync(log).toString()).toContain('/cdn/probe.bin');
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
  // Kodo's own region with no network here: a sentence that says so, not the HTTP client's dump.
  await form.getByRole('button', { name: 'Check and add' }).click();
  await expect(form.getByRole('alert')).toContainText(
    'could not be reached: the name uc.qbox.me does not resolve: this computer may be offline',
  );
  await expect(form.getByRole('alert')).not.toContainText('keepalive');
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

/** BucketManager with uc on the emulator too (bucket info, domains, rules), to read what the service holds. */
function ucManager(): qiniu.rs.BucketManager {
  const host = `127.0.0.1:${emulatorPort}`;
  const uc = new qiniu.httpc.StaticEndpointsProvider([new qiniu.httpc.Endpoint(host, { defaultScheme: 'http' })]);
  return new qiniu.rs.BucketManager(
    sdk().mac,
    new qiniu.conf.Config({ zone: sdk().config.zone!, useHttpsDomain: false, ucEndpointsProvider: uc }),
  );
}

/** GET a link through the emulator's port (its host as Host), with the bytes and headers of the answer. */
function fetchLink(
  link: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Buffer; headers: Record<string, string | string[] | undefined> }> {
  const url = new URL(link);
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port: emulatorPort, path: url.pathname + url.search, headers: { Host: url.host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }));
    })
      .on('error', reject)
      .end();
  });
}

// Fails before the bucket settings change: the dialog had no region or access (a bucket was
// always public in the account's region), a new bucket had no domain, so the thumbnail answered
// 500 and Download and Create link said "no domain, bind one first".
test('a bucket made in the console, private in z1, previews, downloads and shares its image through signed links', async ({ page }) => {
  const storage = new StoragePage(page, server.url);
  await storage.open('#/storage/local');
  await page.getByRole('button', { name: 'New bucket' }).click();
  const dialog = page.getByRole('dialog', { name: 'New bucket' });
  await dialog.getByRole('textbox', { name: 'Bucket name' }).fill('made-here');
  await dialog.getByLabel('Region').click();
  await page.getByRole('option', { name: 'North China (Hebei) · z1' }).click();
  // Private unless the user says otherwise, as in Kodo Browser.
  await expect(dialog.getByRole('radio', { name: /^Private/ })).toBeChecked();
  await page.screenshot({ path: '/tmp/storage-create-bucket-dialog.png' });
  await expectAccessible(page, 'new bucket dialog');
  await dialog.getByRole('button', { name: 'Create bucket' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('buckets-table').locator('tr[data-bucket="made-here"]');
  await expect(row).toContainText('z1');
  await expect(row).toContainText('Private');
  await expect(row).toContainText(/q[a-z0-9]{8}\.bkt\.kodo\.localhost/);
  expect((await ucManager().getBucketInfo('made-here')).data).toMatchObject({ private: 1, region: 'z1' });
  const [testDomain] = ((await ucManager().listBucketDomains('made-here')).data as Array<{ domain: string }>).map((d) => d.domain);

  // Upload an image through the page's own picker.
  const photo = await sharp({ create: { width: 1920, height: 1080, channels: 3, background: { r: 200, g: 30, b: 40 } } })
    .png()
    .toBuffer();
  const photoPath = join(server.dataDir, '..', 'red-photo.png');
  await writeFile(photoPath, photo);
  await row.getByRole('link', { name: 'made-here' }).click();
  await expect(storage.address()).toHaveValue('kodo://made-here/');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('menuitem', { name: 'Files…' }).click();
  await (await chooser).setFiles(photoPath);
  await expect(storage.row('red-photo.png')).toBeVisible({ timeout: 30_000 });

  // The thumbnail is the service's (960 wide) and really the image: its pixels are its colour.
  await storage.row('red-photo.png').getByRole('button').click();
  const details = page.getByRole('dialog', { name: 'red-photo.png' });
  const image = details.getByRole('img', { name: 'Preview of red-photo.png' });
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]), { timeout: 15_000 })
    .toEqual([960, 540]);
  const pixel = await image.evaluate((img: HTMLImageElement) => {
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const context = canvas.getContext('2d')!;
    context.drawImage(img, 0, 0);
    return Array.from(context.getImageData(480, 270, 1, 1).data);
  });
  expect(pixel).toEqual([200, 30, 40, 255]);

  // Create link: signed, on the bucket's test domain, refused once expired.
  await details.getByText('Custom', { exact: true }).click();
  await details.getByRole('textbox', { name: 'Expires after' }).fill('3s');
  await details.getByRole('button', { name: 'Create link' }).click();
  const link = (await details.getByTestId('download-link').locator('code').textContent()) ?? '';
  expect(link).toMatch(new RegExp(`^http://${testDomain!.replace(/\./g, '\\.')}:${emulatorPort}/red-photo\\.png\\?e=\\d+&token=`));
  const signed = await fetchLink(link);
  expect(signed.status).toBe(200);
  expect(signed.body.equals(photo)).toBe(true);
  expect((await fetchLink(link.split('?')[0]!)).status).toBe(401);
  await page.keyboard.press('Escape');

  // Download: the bytes land in the downloads folder.
  await storage.row('red-photo.png').getByRole('checkbox').check();
  await page.getByTestId('storage-browser').getByRole('button', { name: 'Download' }).click();
  await expect
    .poll(
      () =>
        readFile(join(server.dataDir, 'downloads', 'made-here', 'red-photo.png')).then(
          (b) => b.equals(photo),
          () => false,
        ),
      { timeout: 30_000 },
    )
    .toBe(true);
  await expect.poll(async () => (await fetchLink(link)).status, { timeout: 10_000, intervals: [1000] }).toBe(401);
});

// Fails before the bucket settings change: there was no settings panel, and the emulator had no
// domain binding API.
test('bucket settings: access, a bound domain, lifecycle, CORS and referer rules, stored as the service holds them', async ({ page }) => {
  const storage = new StoragePage(page, server.url);
  await storage.open('#/storage/local/made-here');
  await expect(storage.row('red-photo.png')).toBeVisible();
  await page.getByRole('button', { name: 'Bucket settings' }).click();
  const panel = page.getByRole('dialog', { name: 'Settings of made-here' });
  await expect(panel.getByRole('radio', { name: /^Private/ })).toBeChecked();
  await expect(panel.getByTestId('bucket-domains')).toContainText('Test domain');
  await page.screenshot({ path: '/tmp/storage-bucket-settings-top.png' });

  // Public: a plain URL works.
  const [testDomain] = ((await ucManager().listBucketDomains('made-here')).data as Array<{ domain: string }>).map((d) => d.domain);
  const plain = `http://${testDomain}:${emulatorPort}/red-photo.png`;
  expect((await fetchLink(plain)).status).toBe(401);
  await panel.getByRole('radio', { name: /^Public/ }).check();
  await expect.poll(async () => ((await ucManager().getBucketInfo('made-here')).data as { private: number }).private).toBe(0);
  expect((await fetchLink(plain)).status).toBe(200);

  // A domain of the user's own, served at once by the emulator.
  await panel.getByRole('textbox', { name: 'Domain to bind' }).fill('Photos-CDN.localhost');
  await panel.getByRole('button', { name: 'Bind', exact: true }).click();
  await expect(panel.getByTestId('bucket-domains').locator('tr[data-domain="photos-cdn.localhost"]')).toBeVisible();
  expect(((await ucManager().listBucketDomains('made-here')).data as Array<{ domain: string }>).map((d) => d.domain)).toEqual([
    testDomain,
    'photos-cdn.localhost',
  ]);
  expect((await fetchLink(`http://photos-cdn.localhost:${emulatorPort}/red-photo.png`)).status).toBe(200);

  const lifecycle = panel.getByRole('form', { name: 'Lifecycle rule' });
  await lifecycle.getByRole('textbox', { name: 'Rule name' }).fill('tmp_files');
  await lifecycle.getByRole('textbox', { name: 'Key prefix' }).fill('tmp/');
  await lifecycle.getByRole('textbox', { name: 'Delete after (days)' }).fill('7');
  await lifecycle.getByRole('button', { name: 'Add rule' }).click();
  await expect(panel.getByTestId('lifecycle-rules')).toContainText('tmp/ · deleted after 7 days');
  expect((await ucManager().getBucketLifecycleRule('made-here')).data).toMatchObject([
    { name: 'tmp_files', prefix: 'tmp/', delete_after_days: 7 },
  ]);

  const cors = panel.getByRole('form', { name: 'CORS rule' });
  await cors.getByRole('textbox', { name: 'Allowed origins' }).fill('https://app.example.com');
  await cors.getByRole('textbox', { name: 'Exposed headers' }).fill('ETag');
  await cors.getByRole('textbox', { name: 'Max age (s)' }).fill('600');
  await cors.getByRole('button', { name: 'Add CORS rule' }).click();
  await expect(panel.getByTestId('cors-rules')).toContainText('GET, HEAD from https://app.example.com (max-age 600 s)');
  expect((await ucManager().getCorsRules('made-here')).data).toEqual([
    { allowed_origin: ['https://app.example.com'], allowed_method: ['GET', 'HEAD'], exposed_header: ['ETag'], max_age: 600 },
  ]);
  expect((await fetchLink(plain, { Origin: 'https://app.example.com' })).headers['access-control-allow-origin']).toBe(
    'https://app.example.com',
  );

  const referer = panel.getByRole('form', { name: 'Referer rule' });
  await referer.getByRole('radio', { name: 'Allow list' }).check();
  await referer.getByRole('textbox', { name: 'Referer patterns' }).fill('*.example.com');
  await referer.getByRole('checkbox', { name: 'Allow requests without a Referer' }).uncheck();
  await page.screenshot({ path: '/tmp/storage-bucket-settings.png', fullPage: true });
  await expectAccessible(page, 'bucket settings');
  await referer.getByRole('button', { name: 'Save referer rule' }).click();
  await expect
    .poll(async () => (await ucManager().getBucketInfo('made-here')).data)
    .toMatchObject({ anti_leech_mode: 1, refer_wl: ['*.example.com'], no_refer: false });
  expect((await fetchLink(plain)).status).toBe(403);
  expect((await fetchLink(plain, { Referer: 'https://www.example.com/page' })).status).toBe(200);
  expect((await fetchLink(plain, { Referer: 'https://elsewhere.test/' })).status).toBe(403);
});
