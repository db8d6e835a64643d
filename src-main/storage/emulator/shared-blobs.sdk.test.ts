// Copies share their source's blob (a row more, no hard link): ext4 allows 65,000 links per file
// and NTFS 1,024, after which every copy failed with a 599 naming the server's paths. A blob goes
// only with the last object naming it, also across a restart.
import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import qiniu from 'qiniu';
import { kodoEtag } from './encoding';
import { httpGet, startTestEmulator, uploadToken, type TestEmulator } from './test-support';

let env: TestEmulator;
let bm: qiniu.rs.BucketManager;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'kodo-shared-'));
  env = await startTestEmulator({ dataDir });
  bm = new qiniu.rs.BucketManager(env.mac, env.config);
});

afterAll(async () => {
  await env.close();
  await rm(dataDir, { recursive: true, force: true });
});

const objectsDir = (): string => join(dataDir, 'storage', 'objects');
const blobFiles = (): string[] => readdirSync(objectsDir());

async function put(key: string, body: Buffer): Promise<void> {
  const result = await new qiniu.form_up.FormUploader(env.config).put(
    uploadToken({ scope: `pub:${key}` }),
    key,
    body,
    new qiniu.form_up.PutExtra(),
  );
  expect(result.resp.statusCode).toBe(200);
}

async function download(key: string): Promise<{ status: number; body: Buffer }> {
  return httpGet(env.emulator.port, `/download/pub/${encodeURI(key)}`);
}

describe('copies share one blob', () => {
  it('copying adds no file and no hard link, and every copy serves the bytes', async () => {
    const body = randomBytes(70_000);
    await put('src.bin', body);
    expect(blobFiles()).toHaveLength(1);
    const [blob] = blobFiles();
    for (let i = 0; i < 3; i += 1) expect((await bm.copy('pub', 'src.bin', 'pub', `copy-${i}.bin`, {})).resp.statusCode).toBe(200);
    const batch = await bm.batch([3, 4, 5].map((i) => qiniu.rs.copyOp('pub', 'src.bin', 'pub', `copy-${i}.bin`)));
    expect(batch.resp.statusCode).toBe(200);
    expect(batch.data).toEqual([{ code: 200 }, { code: 200 }, { code: 200 }]);
    expect(blobFiles()).toEqual([blob]);
    // The limit that broke copies is on links per file: the count never grows.
    expect(statSync(join(objectsDir(), blob!)).nlink).toBe(1);
    for (let i = 0; i < 6; i += 1) {
      const got = await download(`copy-${i}.bin`);
      expect(got.status).toBe(200);
      expect(got.body.equals(body)).toBe(true);
    }
    expect((await bm.stat('pub', 'copy-5.bin')).data).toMatchObject({ hash: kodoEtag(body), fsize: body.length });
  });

  it('deleting, overwriting or moving one copy leaves the others whole; the last one takes the blob', async () => {
    const body = randomBytes(5_000);
    const before = new Set(blobFiles());
    await put('a.bin', body);
    const shared = blobFiles().filter((f) => !before.has(f));
    expect(shared).toHaveLength(1);
    expect((await bm.copy('pub', 'a.bin', 'pub', 'b.bin', {})).resp.statusCode).toBe(200);
    expect((await bm.copy('pub', 'a.bin', 'pub', 'c.bin', {})).resp.statusCode).toBe(200);
    expect((await bm.delete('pub', 'a.bin')).resp.statusCode).toBe(200);
    await put('b.bin', Buffer.from('replaced'));
    expect((await bm.move('pub', 'c.bin', 'pub', 'd.bin', {})).resp.statusCode).toBe(200);
    expect((await download('a.bin')).status).toBe(404);
    expect((await download('b.bin')).body.toString()).toBe('replaced');
    expect((await download('d.bin')).body.equals(body)).toBe(true);
    expect(blobFiles()).toContain(shared[0]);
    expect((await bm.delete('pub', 'd.bin')).resp.statusCode).toBe(200);
    expect(blobFiles()).not.toContain(shared[0]);
  });

  it('a move onto a copy of the same object keeps the bytes', async () => {
    await put('m1.bin', Buffer.from('same bytes'));
    expect((await bm.copy('pub', 'm1.bin', 'pub', 'm2.bin', {})).resp.statusCode).toBe(200);
    expect((await bm.move('pub', 'm1.bin', 'pub', 'm2.bin', { force: true })).resp.statusCode).toBe(200);
    expect((await download('m2.bin')).body.toString()).toBe('same bytes');
    expect((await download('m1.bin')).status).toBe(404);
  });

  it('a restart keeps a blob that copies still name (the start-up sweep counts every row)', async () => {
    const body = randomBytes(9_000);
    await put('r.bin', body);
    expect((await bm.copy('pub', 'r.bin', 'pub', 'r-copy.bin', {})).resp.statusCode).toBe(200);
    expect((await bm.delete('pub', 'r.bin')).resp.statusCode).toBe(200);
    const port = env.emulator.port;
    await env.close();
    env = await startTestEmulator({ dataDir, port });
    bm = new qiniu.rs.BucketManager(env.mac, env.config);
    expect((await download('r-copy.bin')).body.equals(body)).toBe(true);
  });
});

describe('failures inside the emulator', () => {
  it('answer 599 with the error code and no server path', async () => {
    const broken = await startTestEmulator();
    try {
      // The blob folder disappears under the running service: the commit's rename fails.
      rmSync(join(broken.dir, 'storage', 'objects'), { recursive: true, force: true });
      const result = await new qiniu.form_up.FormUploader(broken.config).put(
        uploadToken({ scope: 'pub:x.bin' }),
        'x.bin',
        'bytes',
        new qiniu.form_up.PutExtra(),
      );
      expect(result.resp.statusCode).toBe(599);
      expect(result.data).toEqual({ error: 'internal error: ENOENT' });
      expect(JSON.stringify(result.data)).not.toContain(broken.dir);
    } finally {
      await broken.close();
    }
  });
});
