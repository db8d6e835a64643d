import { createHash, randomBytes } from 'node:crypto';
import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BlobStore, HEAD_BYTES } from './blob-store';
import { KODO_BLOCK, etagOfBlocks, kodoEtag } from './encoding';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function newStore(): Promise<BlobStore> {
  const root = await mkdtemp(join(tmpdir(), 'blob-store-'));
  const blobs = new BlobStore(root);
  await blobs.init();
  cleanup.push(() => rm(root, { recursive: true, force: true }));
  cleanup.push(() => blobs.close());
  return blobs;
}

/** A body as a socket hands it over: uneven chunks. */
function* chunks(data: Buffer): Generator<Buffer> {
  for (let offset = 0, step = 1; offset < data.length; step += 1) {
    const length = Math.min(data.length - offset, 65_536 + 977 * step);
    yield data.subarray(offset, offset + length);
    offset += length;
  }
}

describe('BlobStore.stage', () => {
  it('appends a resumable part at its offset: md5 at once, its block sha1s read back from the file', async () => {
    const blobs = await newStore();
    const path = blobs.partPath('asm-test');
    const first = randomBytes(1000);
    // An interrupted earlier try left bytes past the offset: they are cut off.
    await writeFile(path, Buffer.concat([first, randomBytes(5000)]));
    const part = randomBytes(2 * KODO_BLOCK + 12_345);
    const staged = await blobs.stage(chunks(part), Infinity, { path, position: first.length }, { md5: true, blocks: true, sync: false });
    expect(staged).toMatchObject({ path, size: part.length, md5: createHash('md5').update(part).digest('hex') });
    expect(staged.head).toEqual(part.subarray(0, HEAD_BYTES));
    expect((await readFile(path)).equals(Buffer.concat([first, part]))).toBe(true);
    const blocks = await blobs.blocksOfFile(path, first.length, part.length);
    expect(blocks).toHaveLength(3);
    expect(etagOfBlocks(blocks)).toBe(kodoEtag(part));
  });

  it('puts an acknowledged part on the disk and out of the page cache, its bytes unchanged, with or without the native helper', async () => {
    for (const env of [process.env, { STORAGE_NATIVE: '0' }]) {
      const root = await mkdtemp(join(tmpdir(), 'blob-store-'));
      cleanup.push(() => rm(root, { recursive: true, force: true }));
      const blobs = new BlobStore(root, env);
      await blobs.init();
      cleanup.push(() => blobs.close());
      const path = blobs.partPath('asm-persist');
      const first = randomBytes(5000);
      const part = randomBytes(KODO_BLOCK + 4321);
      await writeFile(path, first);
      await blobs.stage(chunks(part), Infinity, { path, position: first.length }, { md5: true, blocks: true, sync: false });
      await blobs.persistRange(path, first.length, part.length);
      expect((await readFile(path)).equals(Buffer.concat([first, part]))).toBe(true);
      await expect(blobs.persistRange(blobs.partPath('asm-gone'), 0, 1)).rejects.toThrow(/ENOENT/);
    }
  });

  it('refuses a body past its limit and leaves the file as it was before the part', async () => {
    const blobs = await newStore();
    const path = blobs.partPath('asm-limit');
    const before = randomBytes(3000);
    await writeFile(path, before);
    const staging = blobs.stage(chunks(randomBytes(300_000)), 200_000, { path, position: before.length }, { md5: true, blocks: true });
    await expect(staging).rejects.toThrow(/more than 200000 bytes/);
    expect((await readFile(path)).equals(before)).toBe(true);
  });

  it('stages a whole upload into tmp/ with its etag, md5, crc32 and first bytes', async () => {
    const blobs = await newStore();
    const body = Buffer.concat([Buffer.from('{"a":1}'), randomBytes(3 * 1024 * 1024)]);
    const staged = await blobs.stage(chunks(body));
    expect(staged.path.startsWith(blobs.tmpDir)).toBe(true);
    expect(staged).toMatchObject({ size: body.length, etag: kodoEtag(body), md5: createHash('md5').update(body).digest('hex') });
    expect(staged.head!.subarray(0, 7).toString()).toBe('{"a":1}');
    expect((await readFile(staged.path)).equals(body)).toBe(true);
  });
});
