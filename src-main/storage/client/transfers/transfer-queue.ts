import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ContractFailure } from '../../../../src-shared/contract/result';
import type { TransferSettings, TransferStatus } from '../../../../src-shared/contract/transfers';
import type { Logger } from '../../../platform/logger';
import type { KodoClient } from '../kodo-client';
import { downloadFile, fileEtag, forgetRecord, PART_SIZE, recordedBytes, TransferStopped, type Uploaded } from '../kodo-transfers';
import { createRateMeter, type RateMeter } from './rate-meter';
import type { TransferPatch, TransferRow, TransferStore } from './transfer-store';

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

export interface TransferQueue {
  list(): TransferStatus[];
  add(transfers: readonly NewTransfer[]): TransferStatus[];
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
const QETAG = /^[Fl][\w-]{27}$/;

interface Running {
  controller: AbortController;
  stop?: 'pause' | 'cancel';
  done: Promise<void>;
}

/**
 * The transfer queue: rows in SQLite, up to `concurrency` running at once. Uploads go through
 * the SDK's resumable v2 with a record per transfer; downloads into `<target>.part` with Range.
 * Pause keeps what was sent; cancel throws it away; after a restart what ran runs again from
 * where it stopped.
 */
export function createTransferQueue(deps: TransferQueueDeps): TransferQueue {
  const { store, logger } = deps;
  const running = new Map<string, Running>();
  const live = new Map<string, number>();
  const meters = new Map<string, RateMeter>();
  const changed = new Set<string>();
  let closed = false;

  const concurrency = () => Number(store.setting('concurrency') ?? deps.defaultConcurrency ?? 3);
  const spoolPath = (id: string) => join(deps.dirs.spool, id);

  const statusOf = (row: TransferRow, now = Date.now()): TransferStatus => {
    const { source: _source, overwrite: _overwrite, ...status } = row;
    const transferred = live.get(row.id) ?? row.transferred;
    return { ...status, transferred, bytesPerSecond: row.state === 'running' ? Math.round(meters.get(row.id)?.rate(now) ?? 0) : 0 };
  };

  const flush = () => {
    if (changed.size === 0) return;
    const now = Date.now();
    const statuses: TransferStatus[] = [];
    for (const id of changed) {
      const bytes = live.get(id);
      const row = bytes !== undefined ? store.update(id, { transferred: bytes }) : store.get(id);
      if (row) statuses.push(statusOf(row, now));
    }
    changed.clear();
    deps.onChanged(statuses);
  };
  const timer = setInterval(() => {
    // Running transfers are pushed on every tick: their speed changes even between parts.
    for (const id of running.keys()) changed.add(id);
    flush();
  }, deps.flushEveryMs ?? 250);
  timer.unref();

  // A change of state is pushed at once (coalesced); progress waits for the next tick.
  let flushSoon: NodeJS.Immediate | undefined;
  const patch = (id: string, values: TransferPatch) => {
    const row = store.update(id, values);
    changed.add(id);
    if (values.state !== undefined && !closed) {
      flushSoon ??= setImmediate(() => {
        flushSoon = undefined;
        flush();
      });
    }
    return row;
  };

  const progress = (id: string, bytes: number) => {
    live.set(id, bytes);
    let meter = meters.get(id);
    if (!meter) meters.set(id, (meter = createRateMeter()));
    meter.sample(Date.now(), bytes);
    changed.add(id);
  };

  /** Parts already on the service are dropped there too; if it cannot be reached, the record goes anyway. */
  const abortParts = async (row: TransferRow) => {
    try {
      const client = await deps.clientFor(row.accountId);
      await client.abortUpload({ bucket: row.bucket, key: row.key, resumeDir: deps.dirs.resume, resumeKey: row.id });
    } catch (error) {
      logger.warn('the uploaded parts of a canceled upload were not dropped on the service', { bucket: row.bucket, key: row.key, error: error instanceof Error ? error.message : String(error) });
      forgetRecord(deps.dirs.resume, row.id);
    }
  };

  /** What a canceled transfer leaves behind: its spooled bytes, its parts and resume record, its partial file. */
  const discard = async (row: TransferRow) => {
    if (row.kind === 'upload' && row.size > PART_SIZE) await abortParts(row);
    if (row.kind === 'upload' && row.source === 'spool') await rm(spoolPath(row.id), { force: true });
    if (row.kind === 'download' && row.localPath) await rm(`${row.localPath}.part`, { force: true });
  };

  const runUpload = async (row: TransferRow, client: KodoClient, signal: AbortSignal) => {
    const filePath = row.source === 'spool' ? spoolPath(row.id) : row.localPath!;
    if (!existsSync(filePath)) throw new ContractFailure('not_found', `the file to upload is gone (${row.source === 'spool' ? 'its received bytes were removed' : filePath}); add it again`);
    // Only resumable uploads (above one part) have a record to go on from.
    if (row.size > PART_SIZE) progress(row.id, recordedBytes(deps.dirs.resume, row.id, row.size));
    const uploaded = await client.upload({
      bucket: row.bucket,
      key: row.key,
      filePath,
      size: row.size,
      overwrite: row.overwrite,
      resumeDir: deps.dirs.resume,
      resumeKey: row.id,
      signal,
      onProgress: (bytes) => progress(row.id, bytes),
    });
    // End to end: the service's etag must be the etag of the bytes that were meant to go up.
    const expected = await fileEtag(filePath);
    if (uploaded.hash !== expected) throw new ContractFailure('conflict', `the service stored etag ${uploaded.hash}, but the file's etag is ${expected}; upload it again`);
    if (row.source === 'spool') await rm(filePath, { force: true });
    return uploaded;
  };

  const runDownload = async (row: TransferRow, client: KodoClient, signal: AbortSignal) => {
    const target = row.localPath!;
    const partPath = `${target}.part`;
    const { url, connectTo } = await client.downloadSource(row.bucket, row.key, Math.floor(Date.now() / 1000) + 3600);
    await downloadFile({ url, ...(connectTo ? { connectTo } : {}), partPath, size: row.size, signal, onProgress: (bytes) => progress(row.id, bytes) });
    const size = statSync(partPath).size;
    if (size !== row.size) throw new ContractFailure('conflict', `the download holds ${size} bytes, the object ${row.size}; retry it`);
    // Only Kodo's own etag (qetag) can be computed from the bytes; others are kept as given.
    if (row.etag && QETAG.test(row.etag)) {
      const local = await fileEtag(partPath);
      if (local !== row.etag) {
        await rm(partPath, { force: true });
        throw new ContractFailure('conflict', `the downloaded bytes have etag ${local}, the object ${row.etag}; retry it`);
      }
    }
    await rename(partPath, target);
    return row.etag;
  };

  const start = (row: TransferRow) => {
    const controller = new AbortController();
    const entry: Running = { controller, done: Promise.resolve() };
    running.set(row.id, entry);
    patch(row.id, { state: 'running', error: null });
    entry.done = (async () => {
      try {
        const client = await deps.clientFor(row.accountId);
        const uploaded = row.kind === 'upload' ? await runUpload(row, client, controller.signal) : undefined;
        const etag = uploaded ? uploaded.hash : await runDownload(row, client, controller.signal);
        live.delete(row.id);
        const finished = patch(row.id, { state: 'done', transferred: row.size, finishedAt: Date.now(), ...(etag ? { etag } : {}) });
        if (finished && uploaded) deps.onUploaded?.(finished, uploaded);
      } catch (error) {
        const bytes = live.get(row.id);
        live.delete(row.id);
        if (error instanceof TransferStopped || controller.signal.aborted) {
          if (closed) {
            // The app is closing: the row stays `running` and runs again at the next start.
            if (bytes !== undefined) store.update(row.id, { transferred: bytes });
            return;
          }
          if (entry.stop === 'cancel') {
            await discard(row);
            patch(row.id, { state: 'canceled', transferred: 0, finishedAt: Date.now() });
          } else patch(row.id, { state: 'paused', ...(bytes !== undefined ? { transferred: bytes } : {}) });
          return;
        }
        const message = error instanceof Error ? error.message : String(error);
        logger.warn('transfer failed', { kind: row.kind, bucket: row.bucket, key: row.key, error: message });
        patch(row.id, { state: 'failed', error: message, ...(bytes !== undefined ? { transferred: bytes } : {}) });
      } finally {
        running.delete(row.id);
        meters.delete(row.id);
        pump();
      }
    })();
  };

  const pump = () => {
    if (closed) return;
    const free = concurrency() - running.size;
    if (free <= 0) return;
    for (const row of store.queued(free)) start(row);
  };

  // A restart: what was running goes on, what a browser was sending waits for the rest of it.
  const requeued = store.requeueRunning();
  if (requeued > 0) logger.info('transfers resumed after a restart', { count: requeued });
  for (const row of store.list()) {
    if (row.state !== 'receiving') continue;
    const have = existsSync(spoolPath(row.id)) ? statSync(spoolPath(row.id)).size : 0;
    if (have < row.received) store.update(row.id, { received: have });
  }
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
      const rows: TransferRow[] = transfers.map((t) => ({
        ...t,
        id: randomUUID(),
        received: t.received ?? 0,
        transferred: 0,
        // A browser upload waits for its bytes; an empty file has them all already.
        state: t.source === 'spool' && (t.received ?? 0) < t.size ? 'receiving' : 'queued',
        createdAt: now,
      }));
      store.insert(rows);
      queueMicrotask(pump);
      const statuses = rows.map((row) => statusOf(row, now));
      deps.onChanged(statuses);
      return statuses;
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
        stopping.push(discard(row).then(() => void patch(row.id, { state: 'canceled', transferred: 0, finishedAt: Date.now() })));
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
      await Promise.all(rows.filter((row) => row.state === 'failed').map(discard));
      const ids = rows.map((row) => row.id);
      store.remove(ids);
      deps.onRemoved(ids);
    },
    settings: () => ({ concurrency: concurrency(), downloadsDir: deps.dirs.downloads }),
    setConcurrency(value) {
      store.setSetting('concurrency', String(value));
      pump();
      return { concurrency: concurrency(), downloadsDir: deps.dirs.downloads };
    },
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
    spoolPath,
    downloadedFile(id) {
      const row = store.get(id);
      return row?.kind === 'download' && row.state === 'done' ? row.localPath : undefined;
    },
    async close() {
      closed = true;
      clearInterval(timer);
      if (flushSoon) clearImmediate(flushSoon);
      for (const run of running.values()) run.controller.abort();
      await Promise.all([...running.values()].map((run) => run.done));
      flush();
    },
  };
}
