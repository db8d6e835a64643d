import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { DigestWorker } from './digest-worker';
import { KODO_BLOCK, etagOfBlocks, kodoEtag } from './encoding';

const workers: DigestWorker[] = [];
afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.close();
});

function newWorker(): DigestWorker {
  const worker = new DigestWorker();
  workers.push(worker);
  return worker;
}

/** Feeds `data` in runs of uneven sizes, as socket chunks gathered into writes arrive. */
function feed(job: ReturnType<DigestWorker['start']>, data: Buffer): void {
  let offset = 0;
  for (let step = 1; offset < data.length; step += 1) {
    const length = Math.min(data.length - offset, 700_001 * step);
    const run = [data.subarray(offset, offset + Math.floor(length / 2)), data.subarray(offset + Math.floor(length / 2), offset + length)];
    job.update(run, length);
    offset += length;
  }
}

describe('DigestWorker', () => {
  it('hashes a body of several blocks as the event loop would', async () => {
    const data = randomBytes(2 * KODO_BLOCK + 777_777);
    const job = newWorker().start({ md5: true, crc32: true, blocks: true });
    feed(job, data);
    // The caller's buffers are copied, not moved: they stay readable for the disk write.
    expect(data.length).toBe(2 * KODO_BLOCK + 777_777);
    const sums = await job.sums();
    expect(sums.md5).toBe(createHash('md5').update(data).digest('hex'));
    expect(sums.crc32).toBe(crc32(data));
    const blocks = await job.blocks();
    expect(blocks.map((b) => b.toString('hex'))).toEqual(
      [0, 1, 2].map((i) =>
        createHash('sha1')
          .update(data.subarray(i * KODO_BLOCK, (i + 1) * KODO_BLOCK))
          .digest('hex'),
      ),
    );
    expect(etagOfBlocks(blocks)).toBe(kodoEtag(data));
  });

  it('computes only what is wanted, and runs jobs side by side', async () => {
    const worker = newWorker();
    const a = randomBytes(3_000_000);
    const b = randomBytes(5_000_000);
    const onlyCrc = worker.start({ md5: false, crc32: true, blocks: false });
    const onlyMd5 = worker.start({ md5: true, crc32: false, blocks: false });
    feed(onlyCrc, a);
    feed(onlyMd5, b);
    expect(await onlyCrc.sums()).toEqual({ md5: '', crc32: crc32(a) });
    expect(await onlyMd5.sums()).toEqual({ md5: createHash('md5').update(b).digest('hex'), crc32: 0 });
    expect(await onlyMd5.blocks()).toEqual([]);
  });

  it('an aborted job rejects; closing fails what is pending and a later job starts a new thread', async () => {
    const worker = newWorker();
    const dropped = worker.start({ md5: true, crc32: false, blocks: true });
    dropped.update([randomBytes(1000)], 1000);
    const sums = dropped.sums();
    dropped.abort();
    await expect(sums).rejects.toThrow(/dropped/);

    const pending = worker.start({ md5: true, crc32: false, blocks: false });
    const closing = worker.close();
    await expect(pending.sums()).rejects.toThrow(/closed/);
    await closing;

    const again = worker.start({ md5: true, crc32: false, blocks: false });
    again.update([Buffer.from('abc')], 3);
    expect((await again.sums()).md5).toBe('900150983cd24fb0d6963f7d28e17f72');
  });

  it('hashes the blocks of a range of a file on the thread, and rejects a range the file does not hold', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'digest-file-'));
    try {
      const path = join(dir, 'assembly');
      // A part of two blocks and a bit, behind 1000 bytes of an earlier part.
      const part = randomBytes(2 * KODO_BLOCK + 4321);
      await writeFile(path, Buffer.concat([randomBytes(1000), part]));
      const worker = newWorker();
      const blocks = await worker.blocksOfFile(path, 1000, part.length);
      expect(blocks.map((b) => b.toString('hex'))).toEqual(
        [0, 1, 2].map((i) =>
          createHash('sha1')
            .update(part.subarray(i * KODO_BLOCK, (i + 1) * KODO_BLOCK))
            .digest('hex'),
        ),
      );
      expect(etagOfBlocks(blocks)).toBe(kodoEtag(part));
      // An empty part is one block of nothing, as the etag counts it.
      expect(etagOfBlocks(await worker.blocksOfFile(path, 0, 0))).toBe(kodoEtag(Buffer.alloc(0)));
      await expect(worker.blocksOfFile(path, 1000, part.length + 1)).rejects.toThrow(/ends before byte/);
      await expect(worker.blocksOfFile(join(dir, 'gone'), 0, 10)).rejects.toThrow(/ENOENT/);
      // The thread goes on serving after a failed job.
      expect(etagOfBlocks(await worker.blocksOfFile(path, 1000, 10))).toBe(kodoEtag(part.subarray(0, 10)));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
