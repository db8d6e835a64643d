import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ContractFailure } from '@shared/contract/result';
import { storageService, type PreviewView } from '@shared/contract/storage';
import type { EngineModule } from '../../engine/engine-context';
import type { SafeStorageLike } from '../../platform/secrets/key-source';
import { createAccountClients, LOCAL_ACCOUNT_ID } from './account-clients';
import { publicAccount } from './account-store';
import { bucketSettingsHandlers } from './bucket-settings-handlers';
import { createBatchRunner } from './batch/batch-runner';
import { createFolderIndexer } from './folder-index/folder-indexer';
import { openIndexStoreOnUse } from './folder-index/index-store';
import { createKodoClient, type KodoClient } from './kodo-client';
import { localAccountSource } from './local-account';
import { bindCdnService } from './cdn/cdn-service';
import { createPreviewProxy, PREVIEW_PATH } from './preview/preview-proxy';
import { bindProcessingService } from './processing/processing-service';
import { createPreviewTickets } from './preview/preview-tickets';
import { countUnder } from './prefix-listing';
import { bindTransfersService } from './transfers/transfers-service';
import { storageAccounts, transferUploads } from './storage-capability';

/** The processing behind each preview: a bounded thumbnail (never enlarged), a video's first frame. */
const PREVIEW_FOPS: Record<PreviewView, string | undefined> = {
  original: undefined,
  thumbnail: 'imageView2/2/w/960/h/960',
  poster: 'vframe/jpg/offset/0/w/960',
};

export interface StorageClientOptions {
  /** Electron's safeStorage, so the key that seals SecretKeys sits in the OS keychain. */
  safeStorage?: SafeStorageLike | null;
  /** Where downloads are written; by default ~/Downloads/Relay Console on the desktop, data_dir/downloads headless. */
  downloadsDir?: string;
}

/**
 * The `storage` contract service (and beside it `transfers`, `processing`, `cdn` and the preview
 * path): the embedded emulator and the user's Kodo accounts, through the official SDK.
 */
export function createStorageClientModule(options: StorageClientOptions = {}): EngineModule {
  return {
    name: 'storage-client',
    init(ctx) {
      const log = ctx.logger.child('storage');
      const dir = join(ctx.settings.dataDir, 'storage');
      const local = localAccountSource(ctx.config.section('storage'), ctx.settings.dataDir, () => ctx.addresses.get('storage-emulator'));
      const { store, listAccounts, clientFor, forget } = createAccountClients({
        dir,
        safeStorage: options.safeStorage ?? null,
        local,
        logger: log,
      });
      ctx.capabilities.provide(storageAccounts, { listAccounts, clientFor });

      mkdirSync(dir, { recursive: true });
      // Opened by the first browse, listing or change that needs it, not at start.
      const index = openIndexStoreOnUse(join(dir, 'index.sqlite'));
      const indexer = createFolderIndexer({
        store: index,
        listPage: async ({ accountId, bucket }, prefix, marker) =>
          (await clientFor(accountId)).listObjects(bucket, { prefix, delimiter: '', limit: 1000, ...(marker ? { marker } : {}) }),
        onStatus: (status) => emit('onIndex', status),
        logger: log,
      });
      const batches = createBatchRunner({ clientFor, index, onStatus: (status) => emit('onBatch', status), logger: log });
      ctx.onClose(() => index.close());
      ctx.onClose(() => indexer.close());
      ctx.onClose(() => batches.close());
      const downloadsDir =
        options.downloadsDir ??
        (ctx.runtime === 'electron' ? join(homedir(), 'Downloads', 'Relay Console') : join(ctx.settings.dataDir, 'downloads'));
      const transfers = bindTransfersService(ctx, { dir, downloadsDir, clientFor, index });
      ctx.capabilities.provide(transferUploads, { uploadFile: (upload) => transfers.addFile(upload) });
      bindProcessingService(
        ctx,
        clientFor,
        (job) =>
          void clientFor(job.accountId)
            .then((client) => restat(client, job.accountId, job.saveAs.bucket, job.saveAs.key))
            .catch(() => undefined),
      );
      bindCdnService(ctx, clientFor);
      const previews = createPreviewTickets();
      ctx.http.add([{ method: '*', path: `${PREVIEW_PATH}*`, handler: createPreviewProxy(previews, clientFor) }]);

      /** Stat after a change, and the index told, so sorted views and counts follow. */
      const restat = async (client: KodoClient, accountId: string, bucket: string, key: string) => {
        const details = await client.stat(bucket, key);
        const { md5: _md5, expiration: _expiration, restore: _restore, metadata: _metadata, ...summary } = details;
        index.putObjects({ accountId, bucket }, [summary]);
        return details;
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
          const stored = await store.add(
            { name: label, accessKey, ...(region ? { region } : {}), ...(endpoints ? { endpoints } : {}) },
            secretKey,
          );
          log.info('storage account added', { account: stored.id, access_key: accessKey });
          emit('onAccounts', await listAccounts());
          return publicAccount(stored);
        },
        removeAccount: async ({ accountId }) => {
          if (accountId === LOCAL_ACCOUNT_ID)
            throw new ContractFailure(
              'invalid_input',
              'the local storage account is part of the app; turn it off with storage.emulator.enabled: false',
            );
          if (!(await store.remove(accountId))) throw new ContractFailure('not_found', `no storage account ${accountId}`);
          forget(accountId);
          emit('onAccounts', await listAccounts());
        },
        listBuckets: async ({ accountId }) => (await clientFor(accountId)).listBuckets(),
        listObjects: async ({ accountId, bucket, ...options }) => (await clientFor(accountId)).listObjects(bucket, options),
        createBucket: async ({ accountId, bucket, region, private: isPrivate }) => {
          const account = (await listAccounts()).find((a) => a.id === accountId);
          await (await clientFor(accountId)).createBucket(bucket, region ?? account?.region ?? 'z0', { private: isPrivate === true });
        },
        ...bucketSettingsHandlers(clientFor),
        deleteBucket: async ({ accountId, bucket }) => (await clientFor(accountId)).deleteBucket(bucket),
        statObject: async ({ accountId, bucket, key }) => (await clientFor(accountId)).stat(bucket, key),
        countObjects: async ({ accountId, bucket, prefix }) => countUnder(await clientFor(accountId), bucket, prefix),
        indexFolder: async ({ accountId, bucket, prefix }) => {
          await clientFor(accountId);
          return indexer.start({ accountId, bucket }, prefix);
        },
        indexStatus: async ({ accountId, bucket, prefix }) => indexer.status({ accountId, bucket }, prefix),
        listSorted: async ({ accountId, bucket, prefix, search, sort, descending, offset, limit }) =>
          index.level({ accountId, bucket }, prefix, sort, descending, offset, limit, search),
        startBatch: (request) => batches.start(request),
        listBatches: async () => batches.list(),
        createFolder: async ({ accountId, bucket, prefix }) => {
          const client = await clientFor(accountId);
          // A folder exists as soon as any key starts with its name, marker or not.
          const existing = await client.listObjects(bucket, { prefix, delimiter: '', limit: 1 });
          if (existing.objects.length > 0) throw new ContractFailure('conflict', `a folder ${prefix} already exists in ${bucket}`);
          await client.putEmpty(bucket, prefix);
          await restat(client, accountId, bucket, prefix);
        },
        updateObject: async ({ accountId, bucket, key, mimeType, storageClass, deleteAfterDays }) => {
          const client = await clientFor(accountId);
          if (mimeType !== undefined) await client.changeMime(bucket, key, mimeType);
          if (storageClass !== undefined) await client.changeStorageClass(bucket, key, storageClass);
          if (deleteAfterDays !== undefined) await client.deleteAfterDays(bucket, key, deleteAfterDays);
          return restat(client, accountId, bucket, key);
        },
        restoreObject: async ({ accountId, bucket, key, days }) => {
          const client = await clientFor(accountId);
          await client.restore(bucket, key, days);
          return restat(client, accountId, bucket, key);
        },
        downloadLink: async ({ accountId, bucket, key, expiresInSeconds }) => {
          const expiresAt = Date.now() + expiresInSeconds * 1000;
          const url = await (await clientFor(accountId)).downloadUrl(bucket, key, Math.floor(expiresAt / 1000));
          return { url, expiresAt };
        },
        previewLink: async ({ accountId, bucket, key, view }) => {
          await clientFor(accountId);
          const { ticket, expiresAt } = previews.issue({
            accountId,
            bucket,
            key,
            ...(PREVIEW_FOPS[view] ? { fop: PREVIEW_FOPS[view] } : {}),
          });
          return { url: `${PREVIEW_PATH}${ticket}`, expiresAt };
        },
      });
    },
  };
}
