import { join } from 'node:path';
import { ContractFailure } from '../../../src-shared/contract/result';
import { storageService, type StorageAccount } from '../../../src-shared/contract/storage';
import type { EngineModule } from '../../engine/engine-context';
import { createCacheKeySource, type SafeStorageLike } from '../../platform/secrets/key-source';
import { openSealedFile } from '../../platform/secrets/sealed-file';
import { createAccountStore, publicAccount } from './account-store';
import { createKodoClient, type KodoClient } from './kodo-client';
import { localAccountSource } from './local-account';

export const LOCAL_ACCOUNT_ID = 'local';

export interface StorageClientOptions {
  /** Electron's safeStorage, so the key that seals SecretKeys sits in the OS keychain. */
  safeStorage?: SafeStorageLike | null;
  /** Test hook: the emulator's host when its port was picked at random. */
  emulatorHost?: string;
}

/** The `storage` contract service: the embedded emulator and the user's Kodo accounts, through the official SDK. */
export function createStorageClientModule(options: StorageClientOptions = {}): EngineModule {
  return {
    name: 'storage-client',
    init(ctx) {
      const log = ctx.logger.child('storage');
      const dir = join(ctx.settings.dataDir, 'storage');
      const local = localAccountSource(ctx.config.section('storage'), ctx.settings.dataDir, options.emulatorHost);
      const store = createAccountStore({
        path: join(dir, 'accounts.json'),
        secrets: openSealedFile({
          path: join(dir, 'account-keys.sealed'),
          label: 'storage account keys',
          key: createCacheKeySource({
            path: join(dir, 'account-keys.key'),
            safeStorage: options.safeStorage ?? null,
            onReset: (reason) => log.warn(`${reason}; a new key was made and the saved SecretKeys must be typed again`),
          }),
        }),
      });

      const localAccount = async (): Promise<StorageAccount[]> =>
        local.host ? [{ id: LOCAL_ACCOUNT_ID, name: 'Local storage (emulator)', kind: 'emulator', accessKey: (await local.credentials()).accessKey }] : [];
      const listAccounts = async () => [...(await localAccount()), ...(await store.list()).map(publicAccount)];

      const clientFor = async (accountId: string): Promise<KodoClient> => {
        if (accountId === LOCAL_ACCOUNT_ID && local.host) return createKodoClient(await local.credentials(), { host: local.host });
        const account = (await store.list()).find((a) => a.id === accountId);
        if (!account) throw new ContractFailure('not_found', `no storage account ${accountId}`);
        const secretKey = await store.secretOf(accountId);
        if (!secretKey) throw new ContractFailure('unauthorized', `the SecretKey of ${account.name} could not be read; remove the account and add it again`);
        const location = account.endpoints ? { endpoints: account.endpoints } : { region: account.region! };
        return createKodoClient({ accessKey: account.accessKey, secretKey }, location);
      };

      const emit = ctx.services.bind(storageService, {
        listAccounts,
        addAccount: async ({ name, accessKey, secretKey, region, endpoints }) => {
          const location = endpoints ? { endpoints } : { region: region! };
          // The keys are tried before anything is kept: a typo is caught here, not on first use.
          await createKodoClient({ accessKey, secretKey }, location)
            .listBuckets()
            .catch((error: unknown) => {
              const message = error instanceof Error ? error.message : String(error);
              throw new ContractFailure('invalid_input', `the account was not added: ${message}`);
            });
          const label = name || `${accessKey.slice(0, 6)}… (${region ?? new URL(endpoints!.uc).host})`;
          const stored = await store.add({ name: label, accessKey, ...(region ? { region } : {}), ...(endpoints ? { endpoints } : {}) }, secretKey);
          log.info('storage account added', { account: stored.id, access_key: accessKey });
          emit('onAccounts', await listAccounts());
          return publicAccount(stored);
        },
        removeAccount: async ({ accountId }) => {
          if (accountId === LOCAL_ACCOUNT_ID) throw new ContractFailure('invalid_input', 'the local storage account is part of the app; turn it off with storage.emulator.enabled: false');
          if (!(await store.remove(accountId))) throw new ContractFailure('not_found', `no storage account ${accountId}`);
          emit('onAccounts', await listAccounts());
        },
        listBuckets: async ({ accountId }) => (await clientFor(accountId)).listBuckets(),
        listObjects: async ({ accountId, bucket, ...options }) => (await clientFor(accountId)).listObjects(bucket, options),
        statObject: async ({ accountId, bucket, key }) => (await clientFor(accountId)).stat(bucket, key),
      });
    },
  };
}
