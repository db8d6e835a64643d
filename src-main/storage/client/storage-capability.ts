import type { StorageAccount } from '@shared/contract/storage';
import type { TransferStatus } from '@shared/contract/transfers';
import { capability } from '../../engine/engine-context';
import type { KodoClient } from './kodo-client';
import type { FileUpload } from './transfers/transfer-queue';

/**
 * What the storage client lends the engine's other modules (recordings): the accounts (the
 * emulator's `local` and the added ones) and one SDK client per account, with the keys that
 * never leave main.
 */
export interface StorageAccounts {
  listAccounts(): Promise<StorageAccount[]>;
  /** Rejects with a ContractFailure (`not_found`) for an account that does not exist. */
  clientFor(accountId: string): Promise<KodoClient>;
}

export const storageAccounts = capability<StorageAccounts>('storage.accounts');

/**
 * The transfer queue, for uploads other modules make (a camera's snapshot or clip): they show in
 * the transfer panel with their progress like the user's own uploads.
 */
export interface TransferUploads {
  /** Moves `file` (in data_dir) into the queue, which uploads it to `key` and then removes it. */
  uploadFile(upload: FileUpload): Promise<TransferStatus>;
}

export const transferUploads = capability<TransferUploads>('storage.transfer-uploads');
