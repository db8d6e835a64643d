import type { Logger } from '@main/platform/logger';
import { TransferStopped, type Uploaded } from '../kodo-transfers';
import type { TransferProgress } from './transfer-progress';
import type { TransferRow, TransferStore } from './transfer-store';
import type { TransferWorker } from './transfer-worker';

/** A transfer that runs now: how to stop it, why it was stopped, and when it has settled. */
export interface Running {
  controller: AbortController;
  stop?: 'pause' | 'cancel';
  done: Promise<void>;
}

export interface TransferSchedulerDeps {
  store: TransferStore;
  progress: TransferProgress;
  worker: TransferWorker;
  /** The runs under way, shared with the queue (which stops them) and the progress (which times them). */
  running: Map<string, Running>;
  /** How many may run at once, read at each decision (the user may change it). */
  concurrency(): number;
  onUploaded?(row: TransferRow, uploaded: Uploaded): void;
  logger: Logger;
}

export interface TransferScheduler {
  /** Starts the oldest queued transfers while fewer than `concurrency` run. */
  pump(): void;
  /** Stops the timers and every run; each row stays `running` to go on at the next start. */
  stop(): Promise<void>;
}

/** Starts queued transfers as places free up, and settles each run as done, paused, canceled or failed. */
export function createTransferScheduler(deps: TransferSchedulerDeps): TransferScheduler {
  const { store, progress, worker, running, logger } = deps;
  let closed = false;

  /** Where a run that threw leaves its row: kept for the next start, paused, canceled or failed. */
  const settleStopped = async (row: TransferRow, entry: Running, error: unknown) => {
    const bytes = progress.live(row.id);
    progress.forgetLive(row.id);
    if (error instanceof TransferStopped || entry.controller.signal.aborted) {
      if (closed) {
        // The app is closing: the row stays `running` and runs again at the next start.
        if (bytes !== undefined) store.update(row.id, { transferred: bytes });
        return;
      }
      if (entry.stop === 'cancel') {
        await worker.discard(row);
        progress.patch(row.id, { state: 'canceled', transferred: 0, finishedAt: Date.now() });
      } else progress.patch(row.id, { state: 'paused', ...(bytes !== undefined ? { transferred: bytes } : {}) });
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    logger.warn('transfer failed', { kind: row.kind, bucket: row.bucket, key: row.key, error: message });
    progress.patch(row.id, { state: 'failed', error: message, ...(bytes !== undefined ? { transferred: bytes } : {}) });
  };

  const start = (row: TransferRow) => {
    const controller = new AbortController();
    const entry: Running = { controller, done: Promise.resolve() };
    running.set(row.id, entry);
    progress.patch(row.id, { state: 'running', error: null });
    entry.done = (async () => {
      try {
        const { uploaded, etag } = await worker.run(row, controller.signal);
        progress.forgetLive(row.id);
        const finished = progress.patch(row.id, {
          state: 'done',
          transferred: row.size,
          finishedAt: Date.now(),
          ...(etag ? { etag } : {}),
        });
        if (finished && uploaded) deps.onUploaded?.(finished, uploaded);
        if (row.source === 'spool') {
          await store.written();
          await worker.finished(row).catch((error: unknown) => logger.warn('the bytes of an uploaded file were not removed', { error }));
        }
      } catch (error) {
        await settleStopped(row, entry, error);
      } finally {
        running.delete(row.id);
        progress.forgetMeter(row.id);
        pump();
      }
    })();
  };

  const pump = () => {
    if (closed) return;
    const free = deps.concurrency() - running.size;
    if (free <= 0) return;
    for (const row of store.queued(free)) start(row);
  };

  return {
    pump,
    async stop() {
      closed = true;
      progress.stop();
      for (const run of running.values()) run.controller.abort();
      await Promise.all([...running.values()].map((run) => run.done));
    },
  };
}
