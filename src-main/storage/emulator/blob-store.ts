import { closeSync, createReadStream, createWriteStream, existsSync, fdatasync, fsync, ftruncateSync, openSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, truncate } from 'node:fs/promises';
import { randomBytes, createHash, type Hash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { EtagHasher, etagOfBlocks } from './encoding';
import { DigestWorker, type DigestJob } from './digest-worker';
import { RunWriter } from './run-writer';
import { loadStorageNative, type StorageNative } from './native/storage-native';

/** A temp file fully written and fsynced, with the digests computed while it was written. */
export interface StagedFile {
  path: string;
  size: number;
  etag: string;
  md5: string;
  crc32: number;
  /** The body's first bytes (up to HEAD_BYTES), kept as they came: what MIME sniffing reads. */
  head?: Buffer;
}

/** The bytes kept of a body's start, for MIME sniffing without opening the file again. */
export const HEAD_BYTES = 64;

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
   * A resumable part, whose 4 MiB block sha1s (its share of the object's etag) can wait until
   * it is acknowledged: the md5 and crc32 asked for are computed on the event loop as the bytes
   * come, as the part's reply needs them at once, and `blocksOfFile` reads the blocks back after
   * the reply. Nothing of the body is copied.
   */
  blocks?: boolean;
  /**
   * fsync before returning (default). Resumable parts skip it: a killed process loses nothing
   * from the page cache, and the assembled object is fsynced when it is committed.
   */
  sync?: boolean;
}

const fsyncOf = promisify(fsync);
const fdatasyncOf = promisify(fdatasync);

const ALL_DIGESTS: Digests = { etag: true, md5: true, crc32: true };

/** Bytes gathered before one vectored write; a body that ends before this is hashed inline. */
const WRITE_RUN = 1024 * 1024;
/** Bytes gathered before they are copied to the digest worker. */
const HASH_RUN = 256 * 1024;

/** md5, crc32 and block sha1s of a small body, on the event loop: the worker's round trip would cost more. */
function hashInline(chunks: Buffer[], digests: Digests): { md5: string; crc32: number; blocks: Buffer[] } {
  const md5 = digests.md5 ? createHash('md5') : undefined;
  const sha1 = digests.etag || digests.blocks ? createHash('sha1') : undefined;
  let crc = 0;
  for (const chunk of chunks) {
    md5?.update(chunk);
    sha1?.update(chunk);
    if (digests.crc32) crc = crc32(chunk, crc);
  }
  return { md5: md5?.digest('hex') ?? '', crc32: crc, blocks: sha1 ? [sha1.digest()] : [] };
}

/** md5 and crc32 of a body as its chunks come, on the event loop. */
class InlineSums {
  private readonly md5: Hash | undefined;
  private crc = 0;

  constructor(private readonly digests: Digests) {
    this.md5 = digests.md5 ? createHash('md5') : undefined;
  }

  update(chunk: Buffer): void {
    this.md5?.update(chunk);
    if (this.digests.crc32) this.crc = crc32(chunk, this.crc);
  }

  sums(): { md5: string; crc32: number } {
    return { md5: this.md5?.digest('hex') ?? '', crc32: this.crc };
  }
}

/**
 * Object bytes on disk: `objects/<id>` are committed blobs (named by the metadata row),
 * `tmp/` holds uploads in flight, `parts/` holds resumable pieces. Copies of an object name the
 * same blob (the metadata store counts them). A blob becomes visible only
 * when the DB row pointing at it commits, so a crash leaves at worst an orphan that `sweep` removes.
 */
export class BlobStore {
  readonly objectsDir: string;
  readonly tmpDir: string;
  readonly partsDir: string;
  private readonly digestWorker = new DigestWorker();
  /** Where built (Linux): lets parts on the disk leave the page cache (see `persistRange`). */
  private readonly native: StorageNative | undefined;

  constructor(
    readonly root: string,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    this.native = loadStorageNative(env);
    this.objectsDir = join(root, 'objects');
    this.tmpDir = join(root, 'tmp');
    this.partsDir = join(root, 'parts');
  }

  async init(): Promise<void> {
    await rm(this.tmpDir, { recursive: true, force: true });
    for (const dir of [this.objectsDir, this.tmpDir, this.partsDir]) await mkdir(dir, { recursive: true });
  }

  /** Ends the hashing thread, if one was started. */
  async close(): Promise<void> {
    await this.digestWorker.close();
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
   * Streams `source` into a temp file (or `target`), computing only the digests asked for;
   * throws TooLargeError past `limit`. Bodies past the first megabyte are hashed on the digest
   * worker while their bytes are written, so the event loop only moves bytes; a resumable part
   * (`digests.blocks`) is hashed as `Digests.blocks` says.
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
    const start = typeof target === 'object' ? target.position : 0;
    // Opening, cutting and closing are quick metadata calls made in place: through the thread
    // pool each would cost a round trip on the path from a part's last byte to its reply.
    const out = openSync(path, typeof target === 'object' ? (existsSync(path) ? 'r+' : 'w+') : 'w');
    try {
      if (typeof target === 'object') ftruncateSync(out, start);
    } catch (error) {
      closeSync(out);
      throw error;
    }
    const writer = new RunWriter(out, start);
    let job: DigestJob | undefined;
    const inline = digests.blocks ? new InlineSums(digests) : undefined;
    let size = 0;
    let head = Buffer.alloc(0);
    // Bytes go to the disk in runs of about 1 MiB (one await per 64 KiB socket chunk costs more
    // than the disk), and to the digest worker in runs of 256 KiB, so that little is left to
    // hash when the last byte is in.
    let unwritten: Buffer[] = [];
    let unwrittenBytes = 0;
    let unhashed: Buffer[] = [];
    let unhashedBytes = 0;
    const hashUnhashed = (): void => {
      job ??= this.digestWorker.start({
        md5: Boolean(digests.md5),
        crc32: Boolean(digests.crc32),
        blocks: Boolean(digests.etag || digests.blocks),
      });
      job.update(unhashed, unhashedBytes);
      unhashed = [];
      unhashedBytes = 0;
    };
    let sums: { md5: string; crc32: number };
    let blocks: Promise<Buffer[]>;
    let etag = '';
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > limit) throw new TooLargeError(`more than ${limit} bytes`);
        // A copy: keeping a slice would keep the whole socket buffer alive.
        if (head.length < HEAD_BYTES) head = Buffer.concat([head, Buffer.from(chunk.subarray(0, HEAD_BYTES - head.length))]);
        if (inline) inline.update(chunk);
        else {
          unhashed.push(chunk);
          unhashedBytes += chunk.length;
          if (size >= WRITE_RUN && unhashedBytes >= HASH_RUN) hashUnhashed();
        }
        unwritten.push(chunk);
        unwrittenBytes += chunk.length;
        if (unwrittenBytes >= WRITE_RUN) {
          const run = unwritten;
          const length = unwrittenBytes;
          unwritten = [];
          unwrittenBytes = 0;
          await writer.push(run, length);
        }
      }
      if (job && unhashedBytes > 0) hashUnhashed();
      const small = job || inline ? undefined : hashInline(unhashed, digests);
      if (unwrittenBytes > 0) writer.pushLast(unwritten, unwrittenBytes);
      await writer.finish();
      blocks = job ? job.blocks() : Promise.resolve(inline ? [] : small!.blocks);
      // The fsync and the worker's last run overlap.
      [sums] = await Promise.all([job ? job.sums() : (inline?.sums() ?? small!), digests.sync !== false ? fsyncOf(out) : undefined]);
      if (digests.etag) etag = etagOfBlocks(await blocks);
    } catch (error) {
      job?.abort();
      await writer.finish().catch(() => undefined);
      if (typeof target === 'object') ftruncateSync(out, target.position);
      closeSync(out);
      if (typeof target !== 'object') await rm(path, { force: true });
      throw error;
    }
    closeSync(out);
    return {
      path,
      size,
      etag,
      md5: sums.md5,
      crc32: sums.crc32,
      head,
    };
  }

  /**
   * The 4 MiB block sha1s of `size` bytes of a file from `start` (a part just acknowledged),
   * read back and hashed on the digest thread. Rejects when the file is gone or shorter.
   */
  blocksOfFile(path: string, start: number, size: number): Promise<Buffer[]> {
    return this.digestWorker.blocksOfFile(path, start, size);
  }

  /**
   * Puts a file on the disk (fdatasync) and then, where the native helper is built, lets the
   * kernel drop `size` bytes of it from `start` from the page cache: a part written back is
   * read again only at completion's rare copy, and its pages are handed straight to the next
   * part. Without that, each part takes memory the system has not touched lately, which on a
   * virtual machine costs about ten times as much system time to write into as reused pages.
   */
  async persistRange(path: string, start: number, size: number): Promise<void> {
    // Opening and closing are quick metadata calls made in place; only the flush waits on the disk.
    const fd = openSync(path, 'r+');
    try {
      await fdatasyncOf(fd);
      // Length 0 would mean "to the end of the file".
      if (size > 0) this.native?.dropCachedRange(fd, start, size);
    } finally {
      closeSync(fd);
    }
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
   * file without copying: it is cut to `size`, fsynced and moved to tmp/. Its etag is read from
   * it in one pass unless the caller already knows it (from the parts' block hashes).
   */
  async stageInPlace(path: string, size: number, knownEtag?: string): Promise<StagedFile> {
    await truncate(path, size);
    let etag = knownEtag;
    if (etag === undefined) {
      const hasher = new EtagHasher();
      for await (const chunk of createReadStream(path, { highWaterMark: 4 * 1024 * 1024 })) hasher.update(chunk as Buffer);
      etag = hasher.digest();
    }
    const handle = await open(path, 'r+');
    await handle.sync();
    await handle.close();
    const staged = join(this.tmpDir, this.newId());
    await rename(path, staged);
    return { path: staged, size, etag, md5: '', crc32: 0 };
  }

  /** Moves a staged file into `objects/` under a fresh id; the caller then commits the DB row. */
  async adopt(staged: StagedFile): Promise<string> {
    const id = this.newId();
    await rename(staged.path, this.blobPath(id));
    return id;
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
