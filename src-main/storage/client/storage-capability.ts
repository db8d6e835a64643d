import type { StorageAccount } from '@shared/contract/storage';
import { capability } from '../../engine/engine-context';
import type { KodoClient } from './kodo-client';

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
