import type { TransferStatus } from '@shared/contract/transfers';
import { formatBytes, formatDuration } from '@renderer/ui/format';
import { needsFile } from './resume-upload';

const UNFINISHED = new Set(['receiving', 'queued', 'running', 'paused']);

export interface TransferTotals {
  running: number;
  waiting: number;
  paused: number;
  failed: number;
  done: number;
  /** Browser uploads whose file this page no longer holds: they wait for the user, not the queue. */
  needFile: number;
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
  // Paused (or waiting for its file again) before the console had all of it: the reading leg.
  if (t.state === 'receiving' || (t.kind === 'upload' && t.state === 'paused' && t.received < t.size && t.transferred === 0))
    return t.received / t.size;
  return t.transferred / t.size;
}

export function etaOf(t: Pick<TransferStatus, 'size' | 'transferred' | 'bytesPerSecond' | 'state'>): number | undefined {
  if (t.state !== 'running' || t.bytesPerSecond <= 0) return undefined;
  return Math.ceil((t.size - t.transferred) / t.bytesPerSecond);
}

/** `held`: the uploads whose file this page holds (the rest of those being read need it again). */
export function totalsOf(transfers: readonly TransferStatus[], held: ReadonlySet<string>): TransferTotals {
  const totals: TransferTotals = {
    running: 0,
    waiting: 0,
    paused: 0,
    failed: 0,
    done: 0,
    needFile: 0,
    bytesDone: 0,
    bytesTotal: 0,
    bytesPerSecond: 0,
    etaSeconds: undefined,
  };
  for (const t of transfers) {
    if (needsFile(t, held)) totals.needFile++;
    else if (t.state === 'running') totals.running++;
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

/** "2 running · 1 waiting · 2 need their file": how many transfers are where, for a totals line. */
export function countsText(totals: TransferTotals): string {
  return [
    totals.running > 0 ? `${totals.running} running` : '',
    totals.waiting > 0 ? `${totals.waiting} waiting` : '',
    totals.paused > 0 ? `${totals.paused} paused` : '',
    totals.needFile > 0 ? `${totals.needFile} ${totals.needFile === 1 ? 'needs its file' : 'need their file'} again` : '',
    totals.failed > 0 ? `${totals.failed} failed` : '',
    totals.done > 0 ? `${totals.done} done` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

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
