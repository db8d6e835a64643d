import type { TransferStatus } from '../../../../src-shared/contract/transfers';
import { formatBytes, formatDuration } from '../../../ui/format';

const UNFINISHED = new Set(['receiving', 'queued', 'running', 'paused']);

export interface TransferTotals {
  running: number;
  waiting: number;
  paused: number;
  failed: number;
  done: number;
  /** Bytes done and to do, over the transfers not yet finished. */
  bytesDone: number;
  bytesTotal: number;
  bytesPerSecond: number;
  /** Seconds left at the present speed, or undefined while nothing moves. */
  etaSeconds: number | undefined;
}

/**
 * How far a transfer is, 0..1. A browser upload is first read by the console ("Reading the
 * file", fast, on this machine), then sent to the service: the bar shows the leg under way.
 */
export function progressOf(t: TransferStatus): number {
  if (t.state === 'done') return 1;
  if (t.size === 0) return 0;
  if (t.state === 'receiving') return t.received / t.size;
  return t.transferred / t.size;
}

export function etaOf(t: Pick<TransferStatus, 'size' | 'transferred' | 'bytesPerSecond' | 'state'>): number | undefined {
  if (t.state !== 'running' || t.bytesPerSecond <= 0) return undefined;
  return Math.ceil((t.size - t.transferred) / t.bytesPerSecond);
}

export function totalsOf(transfers: readonly TransferStatus[]): TransferTotals {
  const totals: TransferTotals = { running: 0, waiting: 0, paused: 0, failed: 0, done: 0, bytesDone: 0, bytesTotal: 0, bytesPerSecond: 0, etaSeconds: undefined };
  for (const t of transfers) {
    if (t.state === 'running') totals.running++;
    else if (t.state === 'queued' || t.state === 'receiving') totals.waiting++;
    else if (t.state === 'paused') totals.paused++;
    else if (t.state === 'failed') totals.failed++;
    else if (t.state === 'done') totals.done++;
    if (!UNFINISHED.has(t.state)) continue;
    totals.bytesTotal += t.size;
    // Only bytes at their destination count: reading a file into the console moves nothing yet.
    totals.bytesDone += t.transferred;
    totals.bytesPerSecond += t.bytesPerSecond;
  }
  const remaining = totals.bytesTotal - totals.bytesDone;
  totals.etaSeconds = totals.bytesPerSecond > 0 ? Math.ceil(remaining / totals.bytesPerSecond) : undefined;
  return totals;
}

export const TRANSFER_FILTERS = ['all', 'active', 'failed', 'done'] as const;
export type TransferFilter = (typeof TRANSFER_FILTERS)[number];

export function filterTransfers(transfers: readonly TransferStatus[], filter: TransferFilter): TransferStatus[] {
  switch (filter) {
    case 'active':
      return transfers.filter((t) => UNFINISHED.has(t.state));
    case 'failed':
      return transfers.filter((t) => t.state === 'failed');
    case 'done':
      return transfers.filter((t) => t.state === 'done' || t.state === 'canceled');
    default:
      return [...transfers];
  }
}

/** Merges pushed statuses into the list the console shows, new ones at the end. */
export function mergeTransfers(list: readonly TransferStatus[], changed: readonly TransferStatus[]): TransferStatus[] {
  const byId = new Map(changed.map((t) => [t.id, t]));
  const merged = list.map((t) => byId.get(t.id) ?? t);
  const known = new Set(list.map((t) => t.id));
  for (const t of changed) if (!known.has(t.id)) merged.push(t);
  return merged;
}

/** " · 12 MiB/s · 3 min 20 s left" while something moves, else nothing: the tail of a totals line. */
export function rateText(totals: Pick<TransferTotals, 'bytesPerSecond' | 'etaSeconds'>): string {
  return `${totals.bytesPerSecond > 0 ? ` · ${formatBytes(totals.bytesPerSecond)}/s` : ''}${totals.etaSeconds !== undefined ? ` · ${formatDuration(totals.etaSeconds)} left` : ''}`;
}
