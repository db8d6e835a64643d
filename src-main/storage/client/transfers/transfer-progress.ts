import type { TransferStatus } from '@shared/contract/transfers';
import { createRateMeter, type RateMeter } from './rate-meter';
import type { TransferPatch, TransferRow, TransferStore } from './transfer-store';

export interface TransferProgressDeps {
  store: TransferStore;
  onChanged(statuses: TransferStatus[]): void;
  /** The transfers running now: pushed on every tick, since their speed changes between parts. */
  running(): Iterable<string>;
  /** How often progress is pushed to the console, ms. */
  flushEveryMs?: number;
}

/**
 * What the console sees of the queue: rows changed in the store, bytes moved since the last write
 * and the speed of each running transfer, pushed as statuses a few times a second.
 */
export interface TransferProgress {
  statusOf(row: TransferRow, now?: number): TransferStatus;
  /** Changes a row; a change of state is pushed at once (coalesced), anything else at the next tick. */
  patch(id: string, values: TransferPatch): TransferRow | undefined;
  /** Bytes a running transfer has moved so far: kept in memory, written at each push. */
  progress(id: string, bytes: number): void;
  /** The bytes last reported for a transfer and not yet written, if any. */
  live(id: string): number | undefined;
  /** Forgets the bytes kept in memory for a transfer that stopped. */
  forgetLive(id: string): void;
  /** Forgets the speed of a transfer that no longer runs. */
  forgetMeter(id: string): void;
  flush(): void;
  /** Stops the timers; what changed after is pushed only by a last `flush()`. */
  stop(): void;
}

/** Changes of state that follow one another closely are pushed together, at most this often (ms). */
const STATE_PUSH_MS = 50;

export function createTransferProgress(deps: TransferProgressDeps): TransferProgress {
  const { store } = deps;
  const live = new Map<string, number>();
  const meters = new Map<string, RateMeter>();
  const changed = new Set<string>();
  let stopped = false;
  let lastPush = 0;

  const statusOf = (row: TransferRow, now = Date.now()): TransferStatus => {
    const { source: _source, overwrite: _overwrite, ...status } = row;
    const transferred = live.get(row.id) ?? row.transferred;
    return { ...status, transferred, bytesPerSecond: row.state === 'running' ? Math.round(meters.get(row.id)?.rate(now) ?? 0) : 0 };
  };

  const flush = () => {
    if (changed.size === 0) return;
    const now = Date.now();
    lastPush = now;
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
    for (const id of deps.running()) changed.add(id);
    flush();
  }, deps.flushEveryMs ?? 250);
  timer.unref();

  let flushSoon: NodeJS.Timeout | undefined;
  const patch = (id: string, values: TransferPatch) => {
    const row = store.update(id, values);
    changed.add(id);
    if (values.state !== undefined && !stopped && !flushSoon) {
      // A change after a quiet spell goes at once; a run of them (a folder of small files
      // finishing) goes in one push per STATE_PUSH_MS, not one per file.
      flushSoon = setTimeout(
        () => {
          flushSoon = undefined;
          flush();
        },
        Math.max(0, lastPush + STATE_PUSH_MS - Date.now()),
      );
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

  return {
    statusOf,
    patch,
    progress,
    live: (id) => live.get(id),
    forgetLive: (id) => void live.delete(id),
    forgetMeter: (id) => void meters.delete(id),
    flush,
    stop() {
      stopped = true;
      clearInterval(timer);
      if (flushSoon) clearTimeout(flushSoon);
    },
  };
}
