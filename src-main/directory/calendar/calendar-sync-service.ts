import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { calendarSyncService } from '../../../src-shared/contract/directory';
import { ContractFailure } from '../../../src-shared/contract/result';
import type { EngineContext } from '../../engine/engine-context';
import type { Logger } from '../../platform/logger';
import type { GraphClient } from '../client/graph-client';
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

/**
 * Binds the `calendarSync` contract service on ctx.services: the local copy of a calendar view
 * kept by delta rounds, its status pushed as onStatus. Closed with the engine (ctx.onClose).
 * Returns the sync engine, whose `recordRetry` belongs in the Graph client's onRetry.
 */
export function bindCalendarSync(options: BindCalendarSyncOptions): CalendarSyncEngine {
  const { ctx, logger } = options;
  mkdirSync(dirname(options.databasePath), { recursive: true });
  const store = new CalendarStore(options.databasePath);
  const sync = createCalendarSyncEngine({ client: options.client, store, logger, defaults: options.defaults });

  const emit = ctx.services.bind(calendarSyncService, {
    start: (input) => sync.start(input).catch(asContractFailure),
    stop: () => sync.stop(),
    status: async () => sync.status(),
    syncNow: () => sync.syncNow().catch(asContractFailure),
    resync: () => sync.resync().catch(asContractFailure),
    history: async ({ limit }) => sync.history(limit),
    searchEvents: async ({ text, limit }) => sync.searchEvents(text, limit),
    eventsInRange: async ({ start, end }) => {
      try {
        return sync.eventsInRange(start, end);
      } catch (error) {
        return asContractFailure(error);
      }
    },
  });
  sync.subscribe((status) => emit('onStatus', status));
  ctx.onClose(async () => {
    await sync.close();
    store.close();
  });

  if (options.resume !== false) {
    sync.resume().catch((error: unknown) => logger.warn('calendar sync could not resume', { error: (error as Error).message }));
  }
  return sync;
}
