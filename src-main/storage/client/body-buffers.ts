import { readFileSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';

/** Up to this size a file to upload is read in place rather than through the thread pool. */
const READ_IN_PLACE = 256 * 1024;

/** A file's bytes for one form upload, and the call that gives their buffer back once it is sent. */
export interface UploadBody {
  bytes: Buffer;
  release(): void;
}

/**
 * The buffers form uploads read their files into, used again from one upload to the next.
 * A recording uploads a segment of a few megabytes every few seconds per camera: a fresh
 * buffer each time was memory the system had to hand over page by page (and take back) for
 * every segment, a good part of what uploading cost. At most `keep` buffers wait between
 * uploads; uploads at the same time beyond that get buffers of their own.
 *
 * A small file is read in place: its four calls (open, stat, read, close) take microseconds,
 * but through the thread pool each would wait behind whatever holds it (the embedded
 * emulator's fsyncs among them), and a folder of small files is all such waits.
 */
export function createBodyBuffers(capacity: number, keep = 2) {
  const free: Buffer[] = [];
  return {
    async read(path: string, size: number): Promise<UploadBody> {
      if (size <= READ_IN_PLACE) return { bytes: readFileSync(path), release: () => undefined };
      if (size > capacity) return { bytes: await readFile(path), release: () => undefined };
      const buffer = free.pop() ?? Buffer.allocUnsafeSlow(capacity);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        if (free.length < keep) free.push(buffer);
      };
      try {
        const file = await open(path, 'r');
        try {
          let length = 0;
          // Read to the end: a file that is not the size it was said to be is sent as it is.
          for (;;) {
            if (length === capacity) return { bytes: await readFile(path), release: () => undefined };
            const { bytesRead } = await file.read(buffer, length, capacity - length, length);
            if (bytesRead === 0) break;
            length += bytesRead;
          }
          return { bytes: buffer.subarray(0, length), release };
        } finally {
          await file.close();
        }
      } catch (error) {
        release();
        throw error;
      }
    },
  };
}

export type BodyBuffers = ReturnType<typeof createBodyBuffers>;
