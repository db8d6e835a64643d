import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ContractFailure } from '@shared/contract/result';
import type { BatchItem } from '@shared/contract/storage';
import { DOWNLOADED_FILE_PATH, TRANSFER_BODY_PATH, transfersService } from '@shared/contract/transfers';
import type { EngineContext } from '@main/engine/engine-context';
import type { IndexStore } from '../folder-index/index-store';
import type { KodoClient } from '../kodo-client';
import { createDownloadedFileRoute } from './downloaded-file';
import { createIndexBatcher } from './index-batcher';
import { freeName, localTarget } from './local-target';
import { createSpoolReceiver } from './spool-receiver';
import { createTransferQueue, type NewTransfer, type TransferQueue } from './transfer-queue';
import { openTransferStoreOnUse } from './transfer-store';
import { keepBothKeys } from './upload-conflicts';

export interface TransfersServiceOptions {
  /** `data_dir/storage`: the queue, spooled uploads and resumable records live under it. */
  dir: string;
  downloadsDir: string;
  clientFor(accountId: string): Promise<KodoClient>;
  index: IndexStore;
}

/** Every key a download of `items` means: files as they are, folders with all keys below them. */
async function expand(client: KodoClient, bucket: string, items: readonly BatchItem[]) {
  const objects: Array<{ key: string; size: number; hash: string }> = [];
  for (const item of items) {
    if (!item.folder) {
      const stat = await client.stat(bucket, item.key);
      objects.push({ key: item.key, size: stat.size, hash: stat.hash });
      continue;
    }
    let marker: string | undefined;
    do {
      const page = await client.listObjects(bucket, { prefix: item.key, delimiter: '', limit: 1000, ...(marker ? { marker } : {}) });
      // Folder markers (`a/b/`) are not files to write.
      for (const o of page.objects) if (!o.key.endsWith('/')) objects.push({ key: o.key, size: o.size, hash: o.hash });
      marker = page.marker;
    } while (marker);
  }
  return objects;
}

/** Binds the `transfers` contract service and the HTTP path browsers send upload bytes to. */
export function bindTransfersService(ctx: EngineContext, options: TransfersServiceOptions): TransferQueue {
  const dir = join(options.dir, 'transfers');
  mkdirSync(dir, { recursive: true });
  // Opened now only when an earlier run left a queue to go on with; else by the first transfer.
  const store = openTransferStoreOnUse(join(dir, 'queue.sqlite'));
  const logger = ctx.logger.child('transfers');
  const indexing = createIndexBatcher(options.index, (error) =>
    // The uploads are done; only sorted views miss them until the folder is listed again.
    logger.warn('finished uploads not added to the folder index', { error: error.message }),
  );
  const queue = createTransferQueue({
    store,
    clientFor: options.clientFor,
    dirs: { spool: join(dir, 'spool'), resume: join(dir, 'resume'), downloads: options.downloadsDir },
    onChanged: (statuses) => emit('onTransfers', statuses),
    onRemoved: (ids) => emit('onRemoved', { ids }),
    onUploaded: (row, uploaded) =>
      // The new object shows in sorted views and counts without a new listing.
      indexing.add(
        { accountId: row.accountId, bucket: row.bucket },
        {
          key: row.key,
          size: uploaded.size,
          hash: uploaded.hash,
          mimeType: uploaded.mimeType,
          putTime: row.finishedAt ?? Date.now(),
          storageClass: 'standard',
        },
      ),
    logger,
  });
  ctx.onClose(async () => {
    await queue.close();
    indexing.flush();
    store.close();
  });
  ctx.http.add([
    { method: '*', path: `${TRANSFER_BODY_PATH}*`, handler: createSpoolReceiver(queue) },
    { method: '*', path: `${DOWNLOADED_FILE_PATH}*`, handler: createDownloadedFileRoute(queue) },
  ]);

  const emit = ctx.services.bind(transfersService, {
    list: async () => queue.list(),
    addUploads: async ({ accountId, bucket, prefix, files, overwrite }) => {
      await options.clientFor(accountId);
      const fromDisk = files.some((f) => f.path !== undefined);
      // A path is read from this machine's disk: only the desktop app, whose paths come from
      // the user's own file picker or drop, may name one.
      if (fromDisk && ctx.runtime !== 'electron')
        throw new ContractFailure('invalid_input', 'files on disk can be named only in the desktop app; a browser sends the file itself');
      for (const file of files)
        if (file.path !== undefined && !existsSync(file.path)) throw new ContractFailure('invalid_input', `no file at ${file.path}`);
      const keys = new Set<string>();
      for (const file of files) {
        const key = prefix + file.relativePath;
        if (key.length > 1024)
          throw new ContractFailure('invalid_input', `the key ${key.slice(0, 60)}… is longer than Kodo's 1024 characters`);
        if (keys.has(key)) throw new ContractFailure('invalid_input', `${file.relativePath} is in the list twice`);
        keys.add(key);
      }
      // "Keep both": each such file takes the first "name (n).ext" free in the bucket and the batch.
      const keepBoth = files.filter((f) => f.onConflict === 'keep-both').map((f) => prefix + f.relativePath);
      const client = keepBoth.length > 0 ? await options.clientFor(accountId) : undefined;
      const renamed = client
        ? await keepBothKeys(keepBoth, keys, (candidates) => client.existing(bucket, candidates))
        : new Map<string, string>();
      const transfers: NewTransfer[] = files.map((file) => {
        const key = renamed.get(prefix + file.relativePath) ?? prefix + file.relativePath;
        if (key.length > 1024)
          throw new ContractFailure('invalid_input', `the key ${key.slice(0, 60)}… is longer than Kodo's 1024 characters`);
        return {
          kind: 'upload',
          accountId,
          bucket,
          key,
          name: key.slice(prefix.length),
          size: file.size,
          overwrite: overwrite || file.onConflict === 'overwrite',
          fileName: file.relativePath.slice(file.relativePath.lastIndexOf('/') + 1),
          ...(file.lastModified !== undefined ? { lastModified: file.lastModified } : {}),
          ...(file.path !== undefined ? { source: 'path' as const, localPath: file.path } : { source: 'spool' as const }),
        };
      });
      return queue.add(transfers);
    },
    conflicts: async ({ accountId, bucket, prefix, relativePaths }) => {
      const client = await options.clientFor(accountId);
      const found = await client.existing(
        bucket,
        relativePaths.map((path) => prefix + path),
      );
      return { existing: relativePaths.filter((path) => found.has(prefix + path)) };
    },
    addDownloads: async ({ accountId, bucket, prefix, items, allIn }) => {
      const client = await options.clientFor(accountId);
      const objects = await expand(client, bucket, allIn !== undefined ? [{ key: allIn, folder: true }] : items);
      if (objects.length === 0) throw new ContractFailure('invalid_input', 'the chosen folders hold no files');
      // Names already taken on disk or by a queued download get " (1)", never an overwrite.
      const planned = new Set(
        queue.list().flatMap((t) => (t.kind === 'download' && t.localPath && t.state !== 'done' ? [t.localPath] : [])),
      );
      const transfers: NewTransfer[] = objects.map((object) => {
        const target = freeName(localTarget(options.downloadsDir, bucket, prefix, object.key), (p) => planned.has(p) || existsSync(p));
        planned.add(target);
        return {
          kind: 'download',
          accountId,
          bucket,
          key: object.key,
          name: object.key.slice(prefix.length) || object.key,
          localPath: target,
          size: object.size,
          etag: object.hash,
          source: 'kodo',
          overwrite: false,
        };
      });
      queue.add(transfers);
      return { added: transfers.length };
    },
    pause: async ({ ids }) => queue.pause(ids),
    resume: async ({ ids }) => queue.resume(ids),
    cancel: async ({ ids }) => queue.cancel(ids),
    retry: async ({ ids }) => queue.retry(ids),
    clearFinished: async () => queue.clearFinished(),
    settings: async () => queue.settings(),
    setConcurrency: async ({ concurrency }) => queue.setConcurrency(concurrency),
  });
  return queue;
}
