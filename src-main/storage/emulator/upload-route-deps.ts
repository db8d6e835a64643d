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
  assembling: Set<string>;
  /** Per upload: work on parts already acknowledged (block hashes, fsync), which completion waits for. */
  finishingParts: Map<string, Promise<void>>;
}
