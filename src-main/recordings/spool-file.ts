import { close, fsync, mkdir, open, writev } from 'node:fs';

/** A file written by appending pieces in order, then flushed to disk and closed. */
export interface AppendedFile {
  /** Appends pieces after everything given before (written in the background). */
  write(parts: readonly Uint8Array[]): void;
  /** Waits for the writes, flushes the file to disk and closes it; rejects with the first error. */
  finish(): Promise<void>;
  /** Closes the file as it stands (after the writes under way); never rejects. */
  close(): Promise<void>;
}

/**
 * Appends to a new file at `path` (its folder made when missing) through the file descriptor
 * and Node's callback calls: one `writev` at a time, and pieces that arrive while one is under
 * way go out together in the next. A recording writes a fragment per camera every second; the
 * promise API's file handle and a promise chain per write cost more than the write's own call.
 */
export function appendToNewFile(path: string, folder: string): AppendedFile {
  let fd: number | undefined;
  /** Until the file's open calls back: a close asked meanwhile waits for it, so its descriptor is closed too. */
  let opening = true;
  let failed: Error | undefined;
  let queued: Uint8Array[] = [];
  let writing = false;
  const idle: Array<() => void> = [];

  const settle = () => {
    if (writing || opening || (queued.length > 0 && !failed)) return;
    for (const resolve of idle.splice(0)) resolve();
  };
  const pump = () => {
    if (writing || fd === undefined || failed || queued.length === 0) return settle();
    const parts = queued;
    queued = [];
    let bytes = 0;
    for (const part of parts) bytes += part.length;
    writing = true;
    writev(fd, parts, (error, written) => {
      writing = false;
      if (error) failed = error;
      else if (written !== bytes) failed = new Error(`only ${written} of ${bytes} bytes could be written to ${path} (is the disk full?)`);
      pump();
    });
  };
  const opened = (error: NodeJS.ErrnoException | null, descriptor: number) => {
    opening = false;
    if (error) failed = error;
    else fd = descriptor;
    pump();
  };
  open(path, 'w', (error, descriptor) => {
    // The stream's folder is made with its first segment (and again, should it have gone).
    if (error?.code !== 'ENOENT') return opened(error, descriptor);
    mkdir(folder, { recursive: true }, (made) => (made ? opened(made, -1) : open(path, 'w', opened)));
  });

  const whenIdle = () => new Promise<void>((resolve) => (idle.push(resolve), settle()));
  const closeFd = () =>
    new Promise<void>((resolve) => {
      if (fd === undefined) return resolve();
      const descriptor = fd;
      fd = undefined;
      close(descriptor, () => resolve());
    });

  return {
    write(parts) {
      if (failed) return;
      for (const part of parts) queued.push(part);
      pump();
    },
    async finish() {
      await whenIdle();
      if (failed) {
        await closeFd();
        throw failed;
      }
      const descriptor = fd!;
      await new Promise<void>((resolve, reject) => fsync(descriptor, (error) => (error ? reject(error) : resolve()))).catch(
        async (error: unknown) => {
          await closeFd();
          throw error;
        },
      );
      fd = undefined;
      await new Promise<void>((resolve, reject) => close(descriptor, (error) => (error ? reject(error) : resolve())));
    },
    async close() {
      // A write under way finishes first; what is still queued is not written.
      queued = [];
      failed ??= new Error('closed');
      await whenIdle();
      await closeFd();
    },
  };
}
