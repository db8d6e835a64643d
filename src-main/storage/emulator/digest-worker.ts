import { Worker } from 'node:worker_threads';
import type { DigestReply, DigestRequest, WantedDigests } from './digest-protocol';

interface BodySums {
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

/**
 * The thread's script. From a bundle (dist/main/*.js) it is digest.thread.ts bundled beside it by
 * scripts/build.mjs; from source (vitest, vite-node) Node runs the TypeScript file itself.
 */
const THREAD_SCRIPT = new URL(import.meta.url.endsWith('.ts') ? './digest.thread.ts' : './digest.thread.cjs', import.meta.url);

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

/**
 * Hashes large upload bodies on one worker thread, so the event loop only moves bytes: a 4 MiB
 * part's md5 alone is about 6 ms of CPU, which would otherwise hold every other request.
 * The thread starts on first use, never keeps the process alive, and `close` ends it.
 */
export class DigestWorker {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();

  /**
   * The 4 MiB block sha1s of `size` bytes of a file from `start`, read and hashed on the thread:
   * for bytes already written, so none is copied to it. Rejects when the file is gone or shorter.
   */
  blocksOfFile(path: string, start: number, size: number): Promise<Buffer[]> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    const settle: Waiting = { sums: deferred(), blocks: deferred() };
    this.waiting.set(id, settle);
    worker.postMessage({ id, op: 'file', path, start, size } satisfies DigestRequest);
    return settle.blocks.promise;
  }

  start(want: WantedDigests): DigestJob {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    const settle: Waiting = { sums: deferred(), blocks: deferred() };
    this.waiting.set(id, settle);
    const send = (request: DigestRequest, transfer: ArrayBuffer[] = []): void => worker.postMessage(request, transfer);
    send({ id, op: 'open', want });
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      send({ id, op: 'end' });
    };
    return {
      update: (bytes, length) => {
        // One fresh buffer per run, moved (not cloned) to the worker.
        const copy = Buffer.concat(bytes, length);
        const owned =
          copy.byteOffset === 0 && copy.byteLength === copy.buffer.byteLength
            ? copy.buffer
            : copy.buffer.slice(copy.byteOffset, copy.byteOffset + copy.length);
        send({ id, op: 'data', bytes: owned as ArrayBuffer }, [owned as ArrayBuffer]);
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
        send({ id, op: 'drop' });
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
    const worker = new Worker(THREAD_SCRIPT);
    worker.unref();
    worker.on('message', (reply: DigestReply) => {
      const waiting = this.waiting.get(reply.id);
      if (!waiting) return;
      if (reply.op === 'sums') {
        waiting.sums.resolve({ md5: reply.md5, crc32: reply.crc32 });
        return;
      }
      this.waiting.delete(reply.id);
      if (reply.op === 'failed') {
        const error = new Error(reply.message);
        waiting.sums.reject(error);
        waiting.blocks.reject(error);
        return;
      }
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
