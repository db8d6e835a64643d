import type { FullReason, RoundKind } from '@shared/contract/directory';

// What the store keeps about one synchronised calendar view, beside its events. The kinds of
// round and the reasons for a full one are the contract's, which the console shows.

export interface RoundCounts {
  pages: number;
  added: number;
  updated: number;
  removed: number;
}

/** The round in progress: saved with every page, so a round cut off resumes where it stopped. */
export interface RoundProgress extends RoundCounts {
  kind: RoundKind;
  startedAt: string;
  /** Events seen by a full round carry this number; the rest are swept when it completes. */
  generation: number;
  /** Entries received, changing the copy or not (unchanged, older, removals of unknown ids). */
  received: number;
  /** Full rounds: why this one ran. */
  reason?: FullReason;
}

export interface CompletedRound extends RoundCounts {
  kind: RoundKind;
  startedAt: string;
  durationMs: number;
  received: number;
  reason?: FullReason;
}

/** One round in the view's history: completed, or failed with the reason. */
export interface RoundRecord extends CompletedRound {
  error: string | null;
}

export interface SyncError {
  at: string;
  message: string;
  code: string | null;
}

export interface ViewCounters {
  rounds: number;
  fullSyncs: number;
  throttled: number;
  totals: RoundCounts;
  lastRound: CompletedRound | null;
  lastSuccessAt: string | null;
  lastError: SyncError | null;
  /** Why the next full round will run (set when the delta state is dropped). */
  pendingFullReason?: FullReason;
  /** The connection (GraphClient.connectionKey) the stored delta and next links came from. */
  linksFrom?: string;
}

/** Who is synchronised (`me` or a user id) and the window, as normalized ISO instants (Z). */
export interface SyncTarget {
  user: string;
  windowStart: string;
  windowEnd: string;
}

export interface ViewSettings {
  intervalSeconds: number;
  pageSize: number;
}

export interface CalendarView extends SyncTarget {
  id: number;
  windowStartMs: number;
  windowEndMs: number;
  /** The whole deltaLink of the last completed round; null before the first one completes. */
  deltaLink: string | null;
  /** The nextLink of the round in progress, where it resumes; null between rounds. */
  nextLink: string | null;
  round: RoundProgress | null;
  generation: number;
  settings: ViewSettings;
  /** Left running when the app closed: the sync resumes it at the next start. */
  active: boolean;
  counters: ViewCounters;
}

export const zeroCounts = (): RoundCounts => ({ pages: 0, added: 0, updated: 0, removed: 0 });

export const emptyCounters = (): ViewCounters => ({
  rounds: 0,
  fullSyncs: 0,
  throttled: 0,
  totals: zeroCounts(),
  lastRound: null,
  lastSuccessAt: null,
  lastError: null,
});

export function addCounts<T extends RoundCounts>(into: T, more: RoundCounts): T {
  return {
    ...into,
    pages: into.pages + more.pages,
    added: into.added + more.added,
    updated: into.updated + more.updated,
    removed: into.removed + more.removed,
  };
}
