import type { IncomingMessage } from 'node:http';
import type { AccountLookup } from './auth';
import type { BlobStore } from './blob-store';
import type { MetadataStore } from './metadata-store';
import type { UploadCompletionDeps } from './upload-completion';

export interface UploadRouteDeps extends UploadCompletionDeps {
  db: MetadataStore;
  blobs: BlobStore;
  accounts: AccountLookup;
  /** The emulator's origin as this request reached it (scheme and host), for links handed back (`host` of mkblk and bput replies). */
  publicUrl: (req?: IncomingMessage) => string;
  /**
   * Files being appended to right now, one writer each: v2 uploads (by upload id) with a part
   * going to their assembly file, v1 block files (`blk-<ctx>`) with a chunk going in.
   */
  assembling: Map<string, Promise<void>>;
  /** Per upload: work on parts already acknowledged (block hashes, fsync), which completion waits for. */
  finishingParts: Map<string, Promise<void>>;
}

/** Marks `key` as being appended to (see `assembling`) until the returned function is called. */
export function beginAppend(assembling: Map<string, Promise<void>>, key: string): () => void {
  let end!: () => void;
  assembling.set(key, new Promise<void>((resolve) => (end = resolve)));
  return () => {
    assembling.delete(key);
    end();
  };
}

/**
 * Waits, up to `ms`, for the append to `key` to end: a client that retried a part its earlier
 * attempt is still writing (a slow disk, a timeout on its side) completes once that write is
 * done, as Kodo serves it, rather than being refused. True when no append is left.
 */
export async function appendSettled(assembling: Map<string, Promise<void>>, key: string, ms: number): Promise<boolean> {
  const writing = assembling.get(key);
  if (!writing) return true;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([writing, timedOut]);
  clearTimeout(timer);
  return !assembling.has(key);
}
