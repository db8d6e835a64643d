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
 * bytes, a few at a time. One per window, built at start. A reload loses the files: the
 * transfers list then shows those uploads as needing their file chosen again (`holds`).
 */
export interface UploadQueue {
  add(files: ReadonlyArray<{ id: string; file: ByteSource }>): void;
  /** Stops sending a file the user canceled, and lets it go. */
  drop(id: string): void;
  /** Sends again a file kept while its upload was paused (the upload was resumed). */
  wake(id: string): void;
  /** Files still held by this page (sending, waiting, or kept while paused). */
  holding(): number;
  /** The ids whose file this page holds: a new set after each change, for React to compare. */
  held(): ReadonlySet<string>;
  /** Called after each change of `held()`. */
  subscribe(listener: () => void): () => void;
}

export function createUploadQueue(options: UploadQueueOptions): UploadQueue {
  const waiting: Array<{ id: string; file: ByteSource }> = [];
  const sending = new Map<string, { controller: AbortController; file: ByteSource }>();
  /** Files of uploads the user paused while they were being read: kept until resumed. */
  const parked = new Map<string, ByteSource>();
  const listeners = new Set<() => void>();
  const limit = options.concurrency ?? 3;
  let snapshot: ReadonlySet<string> = new Set();

  const changed = () => {
    snapshot = new Set([...waiting.map((w) => w.id), ...sending.keys(), ...parked.keys()]);
    for (const listener of listeners) listener();
  };

  const next = () => {
    while (sending.size < limit && waiting.length > 0) {
      const { id, file } = waiting.shift()!;
      const controller = new AbortController();
      sending.set(id, { controller, file });
      void sendFileBytes(file, { fetch: options.fetch, url: `${options.path}${encodeURIComponent(id)}`, signal: controller.signal })
        .then((outcome) => {
          if (outcome === 'paused') parked.set(id, file);
        })
        .catch((error: unknown) => options.onFailed?.(id, error instanceof Error ? error : new Error(String(error))))
        .finally(() => {
          sending.delete(id);
          changed();
          next();
        });
    }
  };

  return {
    add(files) {
      // A file chosen again replaces the one held for the same upload, if any.
      for (const { id } of files) {
        parked.delete(id);
        const at = waiting.findIndex((w) => w.id === id);
        if (at >= 0) waiting.splice(at, 1);
      }
      waiting.push(...files.filter(({ id }) => !sending.has(id)));
      changed();
      next();
    },
    drop(id) {
      sending.get(id)?.controller.abort();
      parked.delete(id);
      const at = waiting.findIndex((w) => w.id === id);
      if (at >= 0) waiting.splice(at, 1);
      changed();
    },
    wake(id) {
      const file = parked.get(id);
      if (!file) return;
      parked.delete(id);
      waiting.push({ id, file });
      changed();
      next();
    },
    holding: () => waiting.length + sending.size + parked.size,
    held: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
