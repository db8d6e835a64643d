// The digest thread that DigestWorker (digest-worker.ts) starts: md5 and crc32 as bytes come (a
// reply waits for them); the 4 MiB block sha1s (the etag's input) wait until the sums are out,
// unless more than BACKLOG bytes are waiting. A `file` job reads its bytes from the disk itself
// (a resumable part just written: nothing is copied to the thread) and hashes its blocks.
// It is an entry of its own: scripts/build.mjs bundles it beside the main bundles, and from
// source Node runs this file as it is, which is why the import below names its `.ts` file.
import { createHash, type Hash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort, type MessagePort } from 'node:worker_threads';
import { crc32 } from 'node:zlib';
import { BlockHasher, KODO_BLOCK } from '../kodo-etag.ts';
import type { DigestReply, DigestRequest, WantedDigests } from './digest-protocol';

const BACKLOG = 16 * 1024 * 1024;

interface Job {
  want: WantedDigests;
  md5: Hash | undefined;
  crc: number;
  blocks: BlockHasher;
  /** Bytes whose block sha1s are still to be computed. */
  later: Buffer[];
  laterBytes: number;
}

function hashLater(job: Job): void {
  for (const bytes of job.later) job.blocks.update(bytes);
  job.later = [];
  job.laterBytes = 0;
}

/** The block sha1s of `size` bytes of `path` from `start`, read a block at a time into one buffer. */
function blocksOfFile(path: string, start: number, size: number, buffer: Buffer): Buffer[] {
  const hasher = new BlockHasher();
  const fd = openSync(path, 'r');
  try {
    for (let done = 0; done < size;) {
      const want = Math.min(buffer.length, size - done);
      let filled = 0;
      while (filled < want) {
        const read = readSync(fd, buffer, filled, want - filled, start + done + filled);
        if (read === 0) throw new Error(`${path} ends before byte ${start + size}`);
        filled += read;
      }
      hasher.update(buffer.subarray(0, filled));
      done += filled;
    }
  } finally {
    closeSync(fd);
  }
  return hasher.finish();
}

function serveDigests(port: MessagePort): void {
  let readBuffer: Buffer | undefined;
  const jobs = new Map<number, Job>();
  const reply = (message: DigestReply, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);
  port.on('message', (message: DigestRequest) => {
    const { id } = message;
    if (message.op === 'file') {
      try {
        readBuffer ??= Buffer.allocUnsafe(KODO_BLOCK);
        const all = Buffer.concat(blocksOfFile(message.path, message.start, message.size, readBuffer));
        const hashes = all.buffer.slice(all.byteOffset, all.byteOffset + all.length) as ArrayBuffer;
        reply({ id, op: 'blocks', hashes }, [hashes]);
      } catch (error) {
        reply({ id, op: 'failed', message: (error as Error).message });
      }
      return;
    }
    if (message.op === 'open') {
      const { want } = message;
      jobs.set(id, { want, md5: want.md5 ? createHash('md5') : undefined, crc: 0, blocks: new BlockHasher(), later: [], laterBytes: 0 });
      return;
    }
    const job = jobs.get(id);
    if (!job) return;
    if (message.op === 'data') {
      const bytes = Buffer.from(message.bytes);
      job.md5?.update(bytes);
      if (job.want.crc32) job.crc = crc32(bytes, job.crc);
      if (!job.want.blocks) return;
      job.later.push(bytes);
      job.laterBytes += bytes.length;
      if (job.laterBytes > BACKLOG) hashLater(job);
    } else if (message.op === 'end') {
      reply({ id, op: 'sums', md5: job.md5 ? job.md5.digest('hex') : '', crc32: job.crc });
      hashLater(job);
      const all = Buffer.concat(job.want.blocks ? job.blocks.finish() : []);
      const hashes = all.buffer.slice(all.byteOffset, all.byteOffset + all.length) as ArrayBuffer;
      reply({ id, op: 'blocks', hashes }, [hashes]);
      jobs.delete(id);
    } else {
      jobs.delete(id);
    }
  });
}

if (!parentPort) throw new Error('digest.thread runs only as a worker thread (DigestWorker starts it)');
serveDigests(parentPort);
