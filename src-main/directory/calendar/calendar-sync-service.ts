import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { calendarSyncService, type CalendarSyncStatus } from '@shared/contract/directory';
import { ContractFailure } from '@shared/contract/result';
import type { EngineContext } from '../../engine/engine-context';
import type { Logger } from '../../platform/logger';
import type { GraphClient, RetryInfo } from '../client/graph-client';
import type { DirectoryCalendar } from './calendar-capability';
import { CalendarStore } from './calendar-store';
import { CalendarSyncNotStartedError, createCalendarSyncEngine, type CalendarSyncEngine } from './calendar-sync-engine';
import { CalendarSyncInputError, type CalendarSyncDefaults } from './sync-target';

export interface BindCalendarSyncOptions {
  ctx: Pick<EngineContext, 'services' | 'onClose'>;
  /** A client of its own is best: its onRetry then feeds `recordRetry` alone (see README). */
  client: GraphClient;
  /** The SQLite file of the local copy, e.g. `<data_dir>/directory/calendar.sqlite`. */
  databasePath: string;
  logger: Logger;
  defaults?: Partial<CalendarSyncDefaults>;
  /** Start again the view left running at the last close (default true). */
  resume?: boolean;
}

function asContractFailure(error: unknown): never {
  if (error instanceof CalendarSyncInputError) throw new ContractFailure('invalid_input', error.message);
  if (error instanceof CalendarSyncNotStartedError) throw new ContractFailure('unavailable', error.message);
  throw error;
}

export interface CalendarSyncBinding {
  /** For the Graph client's onRetry: counts throttled retries of the running round. */
  recordRetry(info: RetryInfo): void;
  /**
   * Closes the local copy in use (its running round cancelled) and opens another one: each
   * directory connection keeps its own copy, as its delta links and events belong to its tenant.
   * The view left running in the new copy starts again. `between` runs with no copy open (the
   * connection changes there, so no round of either copy reaches the other's tenant).
   */
  switchTo(databasePath: string, between?: () => Promise<void>): Promise<void>;
  /** The copy in use, for the engine's other modules (`directoryCalendar`). */
  readonly lent: DirectoryCalendar;
}

interface OpenCopy {
  store: CalendarStore;
  sync: CalendarSyncEngine;
  /** The view left running, started again (settled either way). */
  resumed: Promise<unknown>;
}

/**
 * Binds the `calendarSync` contract service on ctx.services: the local copy of a calendar view
 * kept by delta rounds, its status pushed as onStatus. Closed with the engine (ctx.onClose).
 */
export function bindCalendarSync(options: BindCalendarSyncOptions): CalendarSyncBinding {
  const { ctx, logger } = options;
  let emit: (event: 'onStatus', status: CalendarSyncStatus) => void = () => undefined;
  const roundListeners = new Set<() => void>();
  const roundEnded = () => {
    for (const listener of roundListeners) listener();
  };

  const open = (databasePath: string): OpenCopy => {
    mkdirSync(dirname(databasePath), { recursive: true });
    const store = new CalendarStore(databasePath);
    const sync = createCalendarSyncEngine({ client: options.client, store, logger, defaults: options.defaults });
    let syncing = false;
    sync.subscribe((status) => {
      emit('onStatus', status);
      // A round ends when the state leaves `syncing` (idle after it completed, error after it failed).
      if (syncing && status.state !== 'syncing') roundEnded();
      syncing = status.state === 'syncing';
    });
    const resumed =
      options.resume === false
        ? Promise.resolve()
        : sync.resume().catch((error: unknown) => logger.warn('calendar sync could not resume', { error: (error as Error).message }));
    return { store, sync, resumed };
  };
  const close = async (copy: OpenCopy) => {
    await copy.sync.close();
    copy.store.close();
  };

  let current = open(options.databasePath);
  let currentPath = options.databasePath;
  // A switch under way: calls wait for the new copy rather than reach the closed one.
  let switching: Promise<void> = Promise.resolve();
  const engine = async () => {
    await switching;
    return current.sync;
  };

  emit = ctx.services.bind(calendarSyncService, {
    start: async (input) => (await engine()).start(input).catch(asContractFailure),
    stop: async () => (await engine()).stop(),
    status: async () => (await engine()).status(),
    syncNow: async () => (await engine()).syncNow().catch(asContractFailure),
    resync: async () => (await engine()).resync().catch(asContractFailure),
    history: async ({ limit }) => (await engine()).history(limit),
    searchEvents: async ({ text, limit }) => (await engine()).searchEvents(text, limit),
    eventsInRange: async ({ start, end }) => {
      const sync = await engine();
      try {
        return sync.eventsInRange(start, end);
      } catch (error) {
        return asContractFailure(error);
      }
    },
  });
  ctx.onClose(async () => {
    roundListeners.clear();
    await switching;
    await close(current);
  });

  const lent: DirectoryCalendar = {
    async ensureRunning(intervalSeconds) {
      await switching;
      await current.resumed;
      const sync = current.sync;
      if (sync.status().state !== 'stopped') return sync.status();
      return sync.start({ intervalSeconds }).catch(asContractFailure);
    },
    status: () => current.sync.status(),
    eventsInRange(startMs, endMs) {
      try {
        return current.sync.eventsInRange(new Date(startMs).toISOString(), new Date(endMs).toISOString());
      } catch (error) {
        // A copy closed by a switch under way: its successor answers after the switch's round.
        logger.debug('calendar copy not readable now', { error: (error as Error).message });
        return [];
      }
    },
    onRound(listener) {
      roundListeners.add(listener);
      return () => roundListeners.delete(listener);
    },
  };

  return {
    lent,
    recordRetry: (info) => current.sync.recordRetry(info),
    switchTo(databasePath, between) {
      const next = switching.then(async () => {
        await close(current);
        let path = databasePath;
        try {
          await between?.();
        } catch (error) {
          // The connection did not change: its own copy again.
          path = currentPath;
          throw error;
        } finally {
          current = open(path);
          currentPath = path;
        }
        emit('onStatus', current.sync.status());
        roundEnded();
      });
      // A failed switch is the caller's to report; the calls after it still get an answer.
      switching = next.catch(() => undefined);
      return next;
    },
  };
}
