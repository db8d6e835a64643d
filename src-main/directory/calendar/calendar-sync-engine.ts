import type { CalendarEvent, CalendarRound, CalendarSyncStatus } from '@shared/contract/directory';
import type { GraphClient, RetryInfo } from '../client/graph-client';
import { isGraphError } from '../client/graph-error';
import type { Logger } from '../../platform/logger';
import type { CalendarStore } from './calendar-store';
import { runDeltaRound } from './delta-round';
import { DeltaPageError } from './delta-page';
import type { SyncError } from './sync-state';
import { CalendarSyncInputError, DEFAULT_CALENDAR_SYNC, resolveTarget, type CalendarSyncDefaults } from './sync-target';
import { toCalendarEvent } from './to-calendar-event';

interface CalendarSyncStartRequest {
  user?: string;
  start?: string;
  end?: string;
  intervalSeconds?: number;
  pageSize?: number;
}

/** syncNow or eventsInRange before any start. */
export class CalendarSyncNotStartedError extends Error {
  override readonly name = 'CalendarSyncNotStartedError';
}

export interface CalendarSyncEngine {
  /** Starts (or retargets) the sync and runs a round at once; later rounds follow the interval. */
  start(request?: CalendarSyncStartRequest): Promise<CalendarSyncStatus>;
  /** Starts again the view that was running when the app last closed; null when there is none. */
  resume(): Promise<CalendarSyncStatus | null>;
  /** Stops the scheduler and cuts a running round short (its applied pages stay). */
  stop(): Promise<CalendarSyncStatus>;
  status(): CalendarSyncStatus;
  /** Runs a round now, or waits for the one running, and answers with the status after it. */
  syncNow(): Promise<CalendarSyncStatus>;
  /** Drops the delta state (after the running round) and runs a full round. */
  resync(): Promise<CalendarSyncStatus>;
  /** The view's rounds, newest first. */
  history(limit: number): CalendarRound[];
  /** Events of the local copy whose subject holds `text`. */
  searchEvents(text: string, limit: number): CalendarEvent[];
  /** Events of the local copy overlapping [start, end), by start time. */
  eventsInRange(start: string, end: string): CalendarEvent[];
  /** Called after every state change and every round; returns the unsubscribe function. */
  subscribe(listener: (status: CalendarSyncStatus) => void): () => void;
  /** Hook for the Graph client's onRetry: counts throttled requests of the running round. */
  recordRetry(info: RetryInfo): void;
  /** Stops timers and the running round, leaving the view marked to resume at the next start. */
  close(): Promise<void>;
}

export interface CalendarSyncEngineOptions {
  client: GraphClient;
  store: CalendarStore;
  logger: Logger;
  defaults?: Partial<CalendarSyncDefaults>;
  now?: () => Date;
}

type EngineState = CalendarSyncStatus['state'];

function describeError(error: unknown, at: Date): SyncError {
  if (isGraphError(error)) return { at: at.toISOString(), message: error.message, code: error.code };
  if (error instanceof DeltaPageError) return { at: at.toISOString(), message: error.message, code: 'invalidDeltaPage' };
  return { at: at.toISOString(), message: (error as Error)?.message ?? String(error), code: null };
}

/** The status the console sees: the view's stored counters and the engine's state. */
function statusOf(store: CalendarStore, viewId: number | null, state: EngineState, nextRoundAt: Date | null): CalendarSyncStatus {
  const view = viewId === null ? null : store.getView(viewId);
  const counters = view?.counters;
  return {
    state,
    target: view ? { user: view.user, start: view.windowStart, end: view.windowEnd } : null,
    intervalSeconds: view ? view.settings.intervalSeconds : null,
    pageSize: view ? view.settings.pageSize : null,
    nextRoundAt: nextRoundAt?.toISOString() ?? null,
    rounds: counters?.rounds ?? 0,
    fullSyncs: counters?.fullSyncs ?? 0,
    throttled: counters?.throttled ?? 0,
    lastRound: counters?.lastRound ?? null,
    totals: counters?.totals ?? { pages: 0, added: 0, updated: 0, removed: 0 },
    currentRound:
      state === 'syncing' && view?.round
        ? {
            kind: view.round.kind,
            startedAt: view.round.startedAt,
            pages: view.round.pages,
            added: view.round.added,
            updated: view.round.updated,
            removed: view.round.removed,
            received: view.round.received,
          }
        : null,
    eventsStored: view ? store.countEvents(view.id) : 0,
    lastSuccessAt: counters?.lastSuccessAt ?? null,
    lastError: counters?.lastError ?? null,
  };
}

/** Hands the status to every listener: one that throws is logged and does not stop the others. */
function notify(listeners: Iterable<(status: CalendarSyncStatus) => void>, status: CalendarSyncStatus, logger: Logger): void {
  for (const listener of listeners) {
    try {
      listener(status);
    } catch (error) {
      logger.warn('calendar status listener failed', { error: (error as Error).message });
    }
  }
}

/** A range of date-times as epoch ms; refused when either is not a date-time or it ends before it starts. */
function rangeMs(start: string, end: string): [number, number] {
  const startMs = Date.parse(start);
  const endMs = Date.parse(end);
  if (Number.isNaN(startMs) || Number.isNaN(endMs)) throw new CalendarSyncInputError('start and end must be date-times');
  if (endMs <= startMs) throw new CalendarSyncInputError('the range must end after it starts');
  return [startMs, endMs];
}

/**
 * Keeps the local copy of one calendar view in step with Graph: a round at start, then one per
 * interval, one at a time. All state lives in this instance and its store; nothing is global.
 */
export function createCalendarSyncEngine(options: CalendarSyncEngineOptions): CalendarSyncEngine {
  const { client, store, logger } = options;
  const defaults = { ...DEFAULT_CALENDAR_SYNC, ...options.defaults };
  const now = options.now ?? (() => new Date());
  const listeners = new Set<(status: CalendarSyncStatus) => void>();

  let viewId: number | null = store.currentView()?.id ?? null;
  let state: EngineState = 'stopped';
  let active = false;
  let closed = false;
  let running: Promise<void> | null = null;
  let abort: AbortController | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let nextRoundAt: Date | null = null;

  const status = (): CalendarSyncStatus => statusOf(store, viewId, state, nextRoundAt);

  function emit(): void {
    if (listeners.size > 0) notify(listeners, status(), logger);
  }

  // Progress while a round runs: after each page, at most every 200 ms.
  let lastProgress = 0;
  function emitProgress(): void {
    const at = Date.now();
    if (at - lastProgress < 200) return;
    lastProgress = at;
    emit();
  }

  function clearTimer(): void {
    if (timer) clearTimeout(timer);
    timer = null;
    nextRoundAt = null;
  }

  function schedule(): void {
    clearTimer();
    const view = viewId === null ? null : store.getView(viewId);
    if (!view || !active || closed) return;
    const delayMs = view.settings.intervalSeconds * 1000;
    nextRoundAt = new Date(now().getTime() + delayMs);
    timer = setTimeout(() => void runRound(), delayMs);
    timer.unref?.();
  }

  function runRound(): Promise<void> {
    if (running) return running;
    if (viewId === null || closed) return Promise.resolve();
    const id = viewId;
    clearTimer();
    state = 'syncing';
    const controller = new AbortController();
    abort = controller;
    emit();
    running = (async () => {
      try {
        const round = await runDeltaRound({ client, store, logger, now, signal: controller.signal, onPage: emitProgress }, id);
        state = 'idle';
        logger.debug('calendar round complete', { ...round });
      } catch (error) {
        if (controller.signal.aborted) return; // stopped or closed: not a failure of the service
        state = 'error';
        const described = describeError(error, now());
        store.recordFailure(id, described);
        logger.warn('calendar round failed; the next round retries', { error: described.message, code: described.code });
      } finally {
        running = null;
        abort = null;
        schedule();
        emit();
      }
    })();
    return running;
  }

  async function cancelRunning(): Promise<void> {
    abort?.abort(new Error('calendar sync stopped'));
    await running?.catch(() => undefined);
  }

  async function start(request: CalendarSyncStartRequest = {}): Promise<CalendarSyncStatus> {
    if (closed) throw new CalendarSyncNotStartedError('calendar sync is shut down');
    const target = resolveTarget(request, defaults, now(), (user) => store.latestViewOf(user));
    const current = viewId === null ? null : store.getView(viewId);
    const sameView =
      current !== null &&
      current.user === target.user &&
      current.windowStart === target.windowStart &&
      current.windowEnd === target.windowEnd;
    // Another view replaces this one (and drops its events): its round must not write meanwhile.
    if (!sameView) await cancelRunning();
    const view = store.openView(target, {
      intervalSeconds: request.intervalSeconds ?? (sameView ? current.settings.intervalSeconds : defaults.intervalSeconds),
      pageSize: request.pageSize ?? (sameView ? current.settings.pageSize : defaults.pageSize),
    });
    viewId = view.id;
    active = true;
    logger.info('calendar sync started', {
      user: view.user,
      start: view.windowStart,
      end: view.windowEnd,
      incremental: view.deltaLink !== null,
    });
    if (!running) void runRound();
    return status();
  }

  return {
    start,
    async resume() {
      const view = store.currentView();
      if (!view?.active) return null;
      return start({ user: view.user, start: view.windowStart, end: view.windowEnd });
    },
    async stop() {
      active = false;
      clearTimer();
      if (viewId !== null) store.setActive(viewId, false);
      await cancelRunning();
      state = 'stopped';
      emit();
      return status();
    },
    status,
    async syncNow() {
      if (!active) throw new CalendarSyncNotStartedError('calendar sync is stopped: start it first');
      await runRound();
      return status();
    },
    async resync() {
      if (!active || viewId === null) throw new CalendarSyncNotStartedError('calendar sync is stopped: start it first');
      await running?.catch(() => undefined);
      store.clearDeltaState(viewId, 'resync');
      await runRound();
      return status();
    },
    history: (limit) => (viewId === null ? [] : store.roundHistory(viewId, limit)),
    searchEvents: (text, limit) => (viewId === null ? [] : store.searchSubject(viewId, text, limit).map(toCalendarEvent)),
    eventsInRange(start, end) {
      const [startMs, endMs] = rangeMs(start, end);
      if (viewId === null) return [];
      return store.eventsInRange(viewId, startMs, endMs).map(toCalendarEvent);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    recordRetry(info) {
      if (running && viewId !== null && info.status !== 0) store.addThrottled(viewId);
    },
    async close() {
      closed = true;
      clearTimer();
      await cancelRunning();
      listeners.clear();
    },
  };
}
