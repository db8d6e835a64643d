import { sendFileBytes, type ByteSource, type Fetch } from './upload-sender';

export interface UploadQueueOptions {
  fetch: Fetch;
  /** `/console/transfers/`: each upload's bytes go to `<path><id>`. */
  path: string;
  /** Files sent to the console at once (the console then queues them for the service). */
  concurrency?: number;
  onFailed?(id: string, error: Error): void;
}

/**
 * The page's side of browser uploads: it holds the chosen files until the console has their
 * bytes, a few at a time. One per window, built at start; a reload loses the files, and the
 * console then shows those uploads as waiting for their bytes.
 */
export interface UploadQueue {
  add(files: ReadonlyArray<{ id: string; file: ByteSource }>): void;
  /** Stops sending a file the user canceled. */
  drop(id: string): void;
  /** Files still held by this page. */
  holding(): number;
}

export function createUploadQueue(options: UploadQueueOptions): UploadQueue {
  const waiting: Array<{ id: string; file: ByteSource }> = [];
  const sending = new Map<string, AbortController>();
  const limit = options.concurrency ?? 3;

  const next = () => {
    while (sending.size < limit && waiting.length > 0) {
      const { id, file } = waiting.shift()!;
      const controller = new AbortController();
      sending.set(id, controller);
      void sendFileBytes(file, { fetch: options.fetch, url: `${options.path}${encodeURIComponent(id)}`, signal: controller.signal })
        .catch((error: unknown) => options.onFailed?.(id, error instanceof Error ? error : new Error(String(error))))
        .finally(() => {
          sending.delete(id);
          next();
        });
    }
  };

  return {
    add(files) {
      waiting.push(...files);
      next();
    },
    drop(id) {
      sending.get(id)?.abort();
      const at = waiting.findIndex((w) => w.id === id);
      if (at >= 0) waiting.splice(at, 1);
    },
    holding: () => waiting.length + sending.size,
  };
}
