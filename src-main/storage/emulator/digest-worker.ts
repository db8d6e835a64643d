import { Worker } from 'node:worker_threads';

/** The digests of one body that a reply may need as soon as its last byte is in. */
export interface WantedDigests {
  md5: boolean;
  crc32: boolean;
  /** The 4 MiB block sha1s, from which the etag is made. */
  blocks: boolean;
}

export interface BodySums {
  md5: string;
  crc32: number;
}

/** One body being hashed on the worker, fed in order. */
export interface DigestJob {
  /** Copies `bytes` to the worker; the caller keeps its buffers. */
  update(bytes: Buffer[], length: number): void;
  /** md5 and crc32 (those wanted; '' and 0 otherwise) of everything fed, once the worker has caught up; ends the body. */
  sums(): Promise<BodySums>;
  /** sha1 of each 4 MiB block from the body's start (none unless wanted); ends the body, and settles after `sums`. */
  blocks(): Promise<Buffer[]>;
  /** Drops the job (the body was refused); its promises reject. */
  abort(): void;
}

// Plain JavaScript run with `eval`: the emulator runs under vite-node, from the esbuild bundle and
// inside Electron, which do not agree on how to start a worker from a TypeScript file.
// md5 and crc32 are computed as bytes come (a part's reply waits for them); the 4 MiB block
// sha1s (the etag's input) wait until the sums are out, so they run while the client is busy
// sending its next part, unless more than BACKLOG bytes are waiting.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { crc32 } = require('node:zlib');
const BLOCK = 4 * 1024 * 1024;
const BACKLOG = 16 * 1024 * 1024;
const jobs = new Map();
function hashBlocks(job) {
  for (const bytes of job.later) {
    let offset = 0;
    while (offset < bytes.length) {
      const take = Math.min(BLOCK - job.inBlock, bytes.length - offset);
      job.sha1.update(bytes.subarray(offset, offset + take));
      job.inBlock += take;
      offset += take;
      if (job.inBlock === BLOCK) {
        job.hashes.push(job.sha1.digest());
        job.sha1 = createHash('sha1');
        job.inBlock = 0;
      }
    }
  }
  job.later = [];
  job.laterBytes = 0;
}
parentPort.on('message', (message) => {
  const { id, op } = message;
  if (op === 'open') {
    const { want } = message;
    jobs.set(id, { want, md5: want.md5 ? createHash('md5') : undefined, crc: 0, sha1: createHash('sha1'), inBlock: 0, hashes: [], later: [], laterBytes: 0, fed: 0 });
    return;
  }
  const job = jobs.get(id);
  if (!job) return;
  if (op === 'data') {
    const bytes = Buffer.from(message.bytes);
    job.md5?.update(bytes);
    if (job.want.crc32) job.crc = crc32(bytes, job.crc);
    job.fed += bytes.length;
    if (!job.want.blocks) return;
    job.later.push(bytes);
    job.laterBytes += bytes.length;
    if (job.laterBytes > BACKLOG) hashBlocks(job);
  } else if (op === 'end') {
    parentPort.postMessage({ id, op: 'sums', md5: job.md5 ? job.md5.digest('hex') : '', crc32: job.crc });
    hashBlocks(job);
    if (job.want.blocks && (job.inBlock > 0 || job.fed === 0)) job.hashes.push(job.sha1.digest());
    const all = Buffer.concat(job.hashes);
    const out = all.buffer.slice(all.byteOffset, all.byteOffset + all.length);
    parentPort.postMessage({ id, op: 'blocks', hashes: out }, [out]);
    jobs.delete(id);
  } else if (op === 'drop') {
    jobs.delete(id);
  }
});
`;

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: Error): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  // A caller may want only one of a job's answers: the other must not become an unhandled rejection.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

interface Waiting {
  sums: Deferred<BodySums>;
  blocks: Deferred<Buffer[]>;
}

type WorkerReply = { id: number; op: 'sums'; md5: string; crc32: number } | { id: number; op: 'blocks'; hashes: ArrayBuffer };

/**
 * Hashes large upload bodies on one worker thread, so the event loop only moves bytes: a 4 MiB
 * part's md5 alone is about 6 ms of CPU, which would otherwise hold every other request.
 * The thread starts on first use, never keeps the process alive, and `close` ends it.
 */
export class DigestWorker {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();

  start(want: WantedDigests): DigestJob {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    const settle: Waiting = { sums: deferred(), blocks: deferred() };
    this.waiting.set(id, settle);
    worker.postMessage({ id, op: 'open', want });
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      worker.postMessage({ id, op: 'end' });
    };
    return {
      update: (bytes, length) => {
        // One fresh buffer per run, moved (not cloned) to the worker.
        const copy = Buffer.concat(bytes, length);
        const owned = copy.byteOffset === 0 && copy.byteLength === copy.buffer.byteLength ? copy.buffer : copy.buffer.slice(copy.byteOffset, copy.byteOffset + copy.length);
        worker.postMessage({ id, op: 'data', bytes: owned }, [owned as ArrayBuffer]);
      },
      sums: () => {
        end();
        return settle.sums.promise;
      },
      blocks: () => {
        end();
        return settle.blocks.promise;
      },
      abort: () => {
        if (!this.waiting.has(id)) return;
        this.waiting.delete(id);
        worker.postMessage({ id, op: 'drop' });
        const error = new Error('digest job dropped');
        settle.sums.reject(error);
        settle.blocks.reject(error);
      },
    };
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error('digest worker closed'));
    if (worker) await worker.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      const waiting = this.waiting.get(reply.id);
      if (!waiting) return;
      if (reply.op === 'sums') {
        waiting.sums.resolve({ md5: reply.md5, crc32: reply.crc32 });
        return;
      }
      this.waiting.delete(reply.id);
      const all = Buffer.from(reply.hashes);
      const hashes: Buffer[] = [];
      for (let offset = 0; offset < all.length; offset += 20) hashes.push(all.subarray(offset, offset + 20));
      waiting.blocks.resolve(hashes);
    });
    worker.on('error', (error) => {
      // A broken worker fails its jobs; the next body starts a fresh one.
      if (this.worker === worker) this.worker = undefined;
      this.failAll(error);
    });
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const waiting of this.waiting.values()) {
      waiting.sums.reject(error);
      waiting.blocks.reject(error);
    }
    this.waiting.clear();
  }
}
