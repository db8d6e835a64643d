import { join } from 'node:path';
import { ContractFailure } from '@shared/contract/result';
import type { StorageAccount } from '@shared/contract/storage';
import type { Logger } from '../../platform/logger';
import { createCacheKeySource, type SafeStorageLike } from '../../platform/secrets/key-source';
import { openSealedFile } from '../../platform/secrets/sealed-file';
import { createAccountStore, publicAccount, type AccountStore } from './account-store';
import { createKodoClient, type KodoClient } from './kodo-client';
import type { LocalAccountSource } from './local-account';

export const LOCAL_ACCOUNT_ID = 'local';

export interface AccountClients {
  store: AccountStore;
  /** The local account (when the emulator runs), then the added ones. */
  listAccounts(): Promise<StorageAccount[]>;
  /** The SDK client of an account, made once per run. */
  clientFor(accountId: string): Promise<KodoClient>;
  /** Drops the client of a removed account. */
  forget(accountId: string): void;
}

/**
 * The storage accounts: the emulator's, and those the user added (SecretKeys sealed in
 * `account-keys.sealed`), each with its SDK client.
 */
export function createAccountClients(deps: {
  dir: string;
  safeStorage: SafeStorageLike | null;
  local: LocalAccountSource;
  logger: Logger;
}): AccountClients {
  const { dir, local } = deps;
  const store = createAccountStore({
    path: join(dir, 'accounts.json'),
    secrets: openSealedFile({
      path: join(dir, 'account-keys.sealed'),
      label: 'storage account keys',
      key: createCacheKeySource({
        path: join(dir, 'account-keys.key'),
        safeStorage: deps.safeStorage,
        onReset: (reason) => deps.logger.warn(`${reason}; a new key was made and the saved SecretKeys must be typed again`),
      }),
    }),
  });

  const localAccount = async (): Promise<StorageAccount[]> =>
    local.host()
      ? [{ id: LOCAL_ACCOUNT_ID, name: 'Local storage (emulator)', kind: 'emulator', accessKey: (await local.credentials()).accessKey }]
      : [];
  const listAccounts = async () => [...(await localAccount()), ...(await store.list()).map(publicAccount)];

  // One SDK client per account for the run: reading its sealed key for every call would cost
  // a file read and a decryption per upload of a 2,000-file folder.
  const clients = new Map<string, Promise<KodoClient>>();
  const clientFor = (accountId: string): Promise<KodoClient> => {
    let client = clients.get(accountId);
    if (!client) {
      client = newClient(accountId);
      clients.set(accountId, client);
      client.catch(() => clients.delete(accountId));
    }
    return client;
  };
  const newClient = async (accountId: string): Promise<KodoClient> => {
    const localHost = local.host();
    if (accountId === LOCAL_ACCOUNT_ID && localHost) return createKodoClient(await local.credentials(), { host: localHost });
    const account = (await store.list()).find((a) => a.id === accountId);
    if (!account) throw new ContractFailure('not_found', `no storage account ${accountId}`);
    const secretKey = await store.secretOf(accountId);
    if (!secretKey)
      throw new ContractFailure(
        'unauthenticated',
        `the SecretKey of ${account.name} could not be read; remove the account and add it again`,
      );
    const location = account.endpoints ? { endpoints: account.endpoints } : { region: account.region! };
    return createKodoClient({ accessKey: account.accessKey, secretKey }, location);
  };

  return { store, listAccounts, clientFor, forget: (accountId) => void clients.delete(accountId) };
}
