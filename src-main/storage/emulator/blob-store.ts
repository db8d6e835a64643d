import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { link, mkdir, open, readdir, rename, rm, truncate } from 'node:fs/promises';
import { randomBytes, createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { EtagHasher } from './encoding';

/** A temp file fully written and fsynced, with the digests computed while it was written. */
export interface StagedFile {
  path: string;
  size: number;
  etag: string;
  md5: string;
  crc32: number;
}

export class TooLargeError extends Error {}

export interface FileRange {
  path: string;
  start?: number;
  size?: number;
}

export interface Digests {
  etag?: boolean;
  md5?: boolean;
  crc32?: boolean;
  /**
   * fsync before returning (default). Resumable parts skip it: a killed process loses nothing
   * from the page cache, and the assembled object is fsynced when it is committed.
   */
  sync?: boolean;
}

const ALL_DIGESTS: Digests = { etag: true, md5: true, crc32: true };

/**
 * Object bytes on disk: `objects/<id>` are committed blobs (named by the metadata row),
 * `tmp/` holds uploads in flight, `parts/` holds resumable pieces. A blob becomes visible only
 * when the DB row pointing at it commits, so a crash leaves at worst an orphan that `sweep` removes.
 */
export class BlobStore {
  readonly objectsDir: string;
  readonly tmpDir: string;
  readonly partsDir: string;

  constructor(readonly root: string) {
    this.objectsDir = join(root, 'objects');
    this.tmpDir = join(root, 'tmp');
    this.partsDir = join(root, 'parts');
  }

  async init(): Promise<void> {
    await rm(this.tmpDir, { recursive: true, force: true });
    for (const dir of [this.objectsDir, this.tmpDir, this.partsDir]) await mkdir(dir, { recursive: true });
  }

  newId(): string {
    return randomBytes(12).toString('hex');
  }

  blobPath(id: string): string {
    return join(this.objectsDir, id);
  }

  partPath(name: string): string {
    return join(this.partsDir, name);
  }

  /**
   * Streams `source` into a temp file (or `target`), computing only the digests asked for
   * (each one is a full pass over the bytes); throws TooLargeError past `limit`.
   */
  async stage(
    source: AsyncIterable<Buffer> | Iterable<Buffer> | Readable,
    limit = Infinity,
    target?: string | { path: string; position: number },
    digests: Digests = ALL_DIGESTS,
  ): Promise<StagedFile> {
    const path = typeof target === 'string' ? target : target ? target.path : join(this.tmpDir, this.newId());
    // With a position the bytes go at that offset of an existing (or new) file, cutting off
    // whatever an interrupted earlier write left beyond it.
    let position = typeof target === 'object' ? target.position : 0;
    const out = await open(path, typeof target === 'object' ? (existsSync(path) ? 'r+' : 'w+') : 'w');
    if (typeof target === 'object') await out.truncate(position);
    const etag = digests.etag ? new EtagHasher() : undefined;
    const md5 = digests.md5 ? createHash('md5') : undefined;
    let crc = 0;
    let size = 0;
    // Writes go out in runs of about 1 MiB: one await per 64 KiB socket chunk costs more than the disk.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async (): Promise<void> => {
      if (pendingBytes === 0) return;
      const run = pending;
      const length = pendingBytes;
      pending = [];
      pendingBytes = 0;
      const { bytesWritten } = await out.writev(run, position);
      if (bytesWritten < length) {
        // A short vectored write (rare): finish the rest in one plain write.
        const rest = Buffer.concat(run, length).subarray(bytesWritten);
        await out.write(rest, 0, rest.length, position + bytesWritten);
      }
      position += length;
    };
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > limit) throw new TooLargeError(`more than ${limit} bytes`);
        etag?.update(chunk);
        md5?.update(chunk);
        if (digests.crc32) crc = crc32(chunk, crc);
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= 1024 * 1024) await flush();
      }
      await flush();
      if (digests.sync !== false) await out.sync();
    } catch (error) {
      if (typeof target === 'object') await out.truncate(target.position);
      await out.close();
      if (typeof target !== 'object') await rm(path, { force: true });
      throw error;
    }
    await out.close();
    return { path, size, etag: etag?.digest() ?? '', md5: md5?.digest('hex') ?? '', crc32: crc };
  }

  /** Concatenates files or byte ranges of them (resumable parts or blocks) into one staged temp file, with etag and md5. */
  async concat(files: (string | FileRange)[]): Promise<StagedFile> {
    async function* chunks(): AsyncGenerator<Buffer> {
      for (const file of files) {
        const range = typeof file === 'string' ? { path: file } : file;
        if (range.size === 0) continue;
        const options = range.start === undefined ? {} : { start: range.start, end: range.start + range.size! - 1 };
        for await (const chunk of createReadStream(range.path, { highWaterMark: 1024 * 1024, ...options })) yield chunk as Buffer;
      }
    }
    return this.stage(chunks(), Infinity, undefined, { etag: true, md5: true });
  }

  /**
   * Turns a file already holding the whole object (an in-order multipart assembly) into a staged
   * file without copying: it is cut to `size`, hashed for the etag in one read, and moved to tmp/.
   */
  async stageInPlace(path: string, size: number): Promise<StagedFile> {
    await truncate(path, size);
    const etag = new EtagHasher();
    for await (const chunk of createReadStream(path, { highWaterMark: 4 * 1024 * 1024 })) etag.update(chunk as Buffer);
    const handle = await open(path, 'r+');
    await handle.sync();
    await handle.close();
    const staged = join(this.tmpDir, this.newId());
    await rename(path, staged);
    return { path: staged, size, etag: etag.digest(), md5: '', crc32: 0 };
  }

  /** Moves a staged file into `objects/` under a fresh id; the caller then commits the DB row. */
  async adopt(staged: StagedFile): Promise<string> {
    const id = this.newId();
    await rename(staged.path, this.blobPath(id));
    return id;
  }

  /** A second name for an existing blob (copy shares bytes; each row owns one name). */
  async duplicate(id: string): Promise<string> {
    const next = this.newId();
    await link(this.blobPath(id), this.blobPath(next));
    return next;
  }

  async remove(id: string): Promise<void> {
    await rm(this.blobPath(id), { force: true });
  }

  async discard(path: string): Promise<void> {
    await rm(path, { force: true });
  }

  read(id: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.blobPath(id), range ? { start: range.start, end: range.end } : {});
  }

  writeStream(path: string) {
    return createWriteStream(path);
  }

  /** Removes blobs and part files no metadata row names (left by a crash between rename and commit). */
  async sweep(liveBlobs: Set<string>, liveParts: Set<string>): Promise<number> {
    let removed = 0;
    for (const name of await readdir(this.objectsDir)) {
      if (!liveBlobs.has(name)) {
        await rm(join(this.objectsDir, name), { force: true });
        removed += 1;
      }
    }
    for (const name of await readdir(this.partsDir)) {
      if (!liveParts.has(name)) {
        await rm(join(this.partsDir, name), { force: true });
        removed += 1;
      }
    }
    return removed;
  }
}
