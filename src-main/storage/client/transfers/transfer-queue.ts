import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ContractFailure } from '@shared/contract/result';
import type { TransferSettings, TransferStatus } from '@shared/contract/transfers';
import type { Logger } from '@main/platform/logger';
import type { KodoClient } from '../kodo-client';
import type { Uploaded } from '../kodo-transfers';
import { createTransferProgress, type TransferProgress } from './transfer-progress';
import { createTransferScheduler, type Running } from './transfer-scheduler';
import type { TransferRow, TransferStore } from './transfer-store';
import { createTransferWorker } from './transfer-worker';

export interface TransferQueueDeps {
  store: TransferStore;
  clientFor(accountId: string): Promise<KodoClient>;
  /** Browser uploads land here before they go to the service; resumable records sit in `resume`. */
  dirs: { spool: string; resume: string; downloads: string };
  onChanged(statuses: TransferStatus[]): void;
  onRemoved(ids: string[]): void;
  /** A finished upload, so the folder index can list it without a new listing. */
  onUploaded?(row: TransferRow, uploaded: Uploaded): void;
  logger: Logger;
  defaultConcurrency?: number;
  /** How often progress is pushed to the console, ms. */
  flushEveryMs?: number;
}

export type NewTransfer = Omit<TransferRow, 'id' | 'state' | 'received' | 'transferred' | 'createdAt'> & { received?: number };

export type FileUpload = Pick<TransferRow, 'accountId' | 'bucket' | 'key' | 'name'> & { file: string };

export interface TransferQueue {
  list(): TransferStatus[];
  add(transfers: readonly NewTransfer[]): TransferStatus[];
  /**
   * An upload of a file main made (a snapshot, a clip), moved into the queue's spool: the queue
   * then owns it, as a browser upload's bytes (removed once uploaded, canceled or cleared).
   * The file must be on the same disk as data_dir.
   */
  addFile(upload: FileUpload): Promise<TransferStatus>;
  pause(ids: readonly string[]): void;
  resume(ids: readonly string[]): void;
  cancel(ids: readonly string[]): Promise<void>;
  retry(ids: readonly string[]): void;
  /** Forgets finished, failed and canceled transfers; what a failed one kept to go on from is deleted. */
  clearFinished(): Promise<void>;
  settings(): TransferSettings;
  setConcurrency(concurrency: number): TransferSettings;
  /** A browser upload that is waiting for bytes, or undefined. */
  receiving(id: string): TransferRow | undefined;
  /** A browser upload paused before all its bytes arrived: the page keeps the file until resumed. */
  pausedReading(id: string): TransferRow | undefined;
  /** Bytes a browser sent so far; the upload joins the queue once all have arrived. */
  received(id: string, received: number): void;
  spoolPath(id: string): string;
  /** Where a finished download was written, or undefined for anything else. */
  downloadedFile(id: string): string | undefined;
  /** Stops what runs, keeping each transfer's place to go on from at the next start. */
  close(): Promise<void>;
}

const FINAL = new Set(['done', 'failed', 'canceled']);

/**
 * The transfer queue: rows in SQLite, up to `concurrency` running at once. Uploads go through
 * the SDK's resumable v2 with a record per transfer; downloads into `<target>.part` with Range.
 * Pause keeps what was sent; cancel throws it away; after a restart what ran runs again from
 * where it stopped. The scheduler starts and settles runs, the worker carries each one out, the
 * progress pushes what changed; this file answers the console's requests.
 */
export function createTransferQueue(deps: TransferQueueDeps): TransferQueue {
  const { store, logger } = deps;
  const running = new Map<string, Running>();
  // Read at every start of a transfer: kept here, and written through when the user changes it.
  let limit = Number(store.setting('concurrency') ?? deps.defaultConcurrency ?? 3);
  const concurrency = () => limit;
  const spoolPath = (id: string) => join(deps.dirs.spool, id);
  const progress = createTransferProgress({
    store,
    onChanged: deps.onChanged,
    running: () => running.keys(),
    ...(deps.flushEveryMs !== undefined ? { flushEveryMs: deps.flushEveryMs } : {}),
  });
  const { patch, statusOf } = progress;
  const worker = createTransferWorker({ clientFor: deps.clientFor, dirs: deps.dirs, spoolPath, progress: progress.progress, logger });
  const scheduler = createTransferScheduler({
    store,
    progress,
    worker,
    running,
    concurrency,
    ...(deps.onUploaded ? { onUploaded: deps.onUploaded } : {}),
    logger,
  });
  const { pump } = scheduler;

  recoverAfterRestart(store, logger, spoolPath);
  queueMicrotask(pump);

  const each = (ids: readonly string[], act: (row: TransferRow) => void) => {
    for (const id of ids) {
      const row = store.get(id);
      if (!row) throw new ContractFailure('not_found', `no transfer ${id}`);
      act(row);
    }
  };

  return {
    list: () => store.list().map((row) => statusOf(row)),
    add(transfers) {
      const now = Date.now();
      const rows = transfers.map((t) => newRow(t, now));
      store.insert(rows);
      queueMicrotask(pump);
      const statuses = rows.map((row) => statusOf(row, now));
      deps.onChanged(statuses);
      return statuses;
    },
    async addFile({ file, ...target }) {
      const size = (await stat(file)).size;
      const row = newRow({ ...target, kind: 'upload', size, received: size, source: 'spool', overwrite: false }, Date.now());
      await mkdir(deps.dirs.spool, { recursive: true });
      await rename(file, spoolPath(row.id));
      store.insert([row]);
      queueMicrotask(pump);
      const status = statusOf(row, row.createdAt);
      deps.onChanged([status]);
      return status;
    },
    pause(ids) {
      each(ids, (row) => {
        const run = running.get(row.id);
        if (run) {
          run.stop = 'pause';
          run.controller.abort();
        } else if (row.state === 'queued' || row.state === 'receiving') {
          // A browser upload still being read pauses too: the page keeps its file and stops sending.
          patch(row.id, { state: 'paused' });
        }
      });
    },
    resume(ids) {
      each(ids, (row) => {
        if (row.state !== 'paused') return;
        const waiting = row.source === 'spool' && row.received < row.size;
        patch(row.id, { state: waiting ? 'receiving' : 'queued' });
      });
      pump();
    },
    async cancel(ids) {
      const stopping: Promise<void>[] = [];
      each(ids, (row) => {
        if (FINAL.has(row.state) && row.state !== 'failed') return;
        const run = running.get(row.id);
        if (run) {
          run.stop = 'cancel';
          run.controller.abort();
          stopping.push(run.done);
          return;
        }
        stopping.push(worker.discard(row).then(() => void patch(row.id, { state: 'canceled', transferred: 0, finishedAt: Date.now() })));
      });
      await Promise.all(stopping);
    },
    retry(ids) {
      each(ids, (row) => {
        if (row.state !== 'failed' && row.state !== 'canceled') return;
        if (row.kind === 'upload' && row.source === 'spool' && !existsSync(spoolPath(row.id))) {
          throw new ContractFailure('invalid_input', `${row.name} must be chosen again: its bytes were discarded when it was canceled`);
        }
        patch(row.id, { state: 'queued', error: null, finishedAt: null });
      });
      pump();
    },
    async clearFinished() {
      const rows = store.list().filter((row) => FINAL.has(row.state));
      if (rows.length === 0) return;
      await Promise.all(rows.filter((row) => row.state === 'failed').map(worker.discard));
      const ids = rows.map((row) => row.id);
      store.remove(ids);
      deps.onRemoved(ids);
    },
    settings: () => ({ concurrency: concurrency(), downloadsDir: deps.dirs.downloads }),
    setConcurrency(value) {
      store.setSetting('concurrency', String(value));
      limit = value;
      pump();
      return { concurrency: concurrency(), downloadsDir: deps.dirs.downloads };
    },
    ...browserUploads(store, patch, pump),
    spoolPath,
    downloadedFile(id) {
      const row = store.get(id);
      return row?.kind === 'download' && row.state === 'done' ? row.localPath : undefined;
    },
    async close() {
      await scheduler.stop();
      progress.flush();
    },
  };
}

/** A new transfer's row: a browser upload waits for its bytes; an empty file has them all already. */
const newRow = (t: NewTransfer, now: number): TransferRow => ({
  ...t,
  id: randomUUID(),
  received: t.received ?? 0,
  transferred: 0,
  state: t.source === 'spool' && (t.received ?? 0) < t.size ? 'receiving' : 'queued',
  createdAt: now,
});

/** A restart: what was running goes on, what a browser was sending waits for the rest of it. */
function recoverAfterRestart(store: TransferStore, logger: Logger, spoolPath: (id: string) => string) {
  const requeued = store.requeueRunning();
  if (requeued > 0) logger.info('transfers resumed after a restart', { count: requeued });
  for (const row of store.list()) {
    if (row.state !== 'receiving') continue;
    const have = existsSync(spoolPath(row.id)) ? statSync(spoolPath(row.id)).size : 0;
    if (have < row.received) store.update(row.id, { received: have });
  }
}

/** The bytes of browser uploads, as the spool receiver reports them and asks about them. */
function browserUploads(
  store: TransferStore,
  patch: TransferProgress['patch'],
  pump: () => void,
): Pick<TransferQueue, 'receiving' | 'pausedReading' | 'received'> {
  return {
    receiving: (id) => {
      const row = store.get(id);
      return row?.state === 'receiving' ? row : undefined;
    },
    pausedReading: (id) => {
      const row = store.get(id);
      return row?.state === 'paused' && row.source === 'spool' && row.received < row.size ? row : undefined;
    },
    received(id, bytes) {
      const row = store.get(id);
      if (!row) return;
      const complete = bytes >= row.size;
      patch(id, { received: bytes, ...(complete && row.state === 'receiving' ? { state: 'queued' } : {}) });
      if (complete) pump();
    },
  };
}
