import type { GraphClient } from '../client/graph-client';
import { isGraphError } from '../client/graph-error';
import type { Logger } from '../../platform/logger';
import type { CalendarStore } from './calendar-store';
import { DeltaPageError, parseDeltaPage } from './delta-page';
import type { CalendarView, CompletedRound } from './sync-state';

export interface DeltaRoundDeps {
  client: GraphClient;
  store: CalendarStore;
  logger: Logger;
  now: () => Date;
  signal?: AbortSignal;
  /** Called after each applied page (progress for the console). */
  onPage?(): void;
}

/** Error codes saying the delta token is no longer usable: SyncStateNotFound, SyncStateInvalid, InvalidDeltaToken, ErrorInvalidSyncStateData, resyncRequired. */
const SYNC_STATE_GONE = /syncstate|deltatoken|synctoken|resyncrequired/i;

/** How many times one call starts over after an expired token or a dead resume point. */
const MAX_RESTARTS = 2;

/** `/me/calendarView/delta` or `/users/{id}/calendarView/delta`. */
function deltaPath(user: string): string {
  return user === 'me' ? '/me/calendarView/delta' : `/users/${encodeURIComponent(user)}/calendarView/delta`;
}

/** Where a round continues: a link from the service (used as it stands) or the initial call. */
interface Step {
  path: string;
  query?: Record<string, string>;
}

/**
 * A link must lead back to the service the round started on: a page naming another origin is
 * refused before anything of it is applied or saved.
 */
function checkLink(link: string, baseUrl: string): void {
  let origin: string;
  try {
    origin = new URL(link).origin;
  } catch {
    throw new DeltaPageError(`the delta reply carries a link that is not a URL: ${link.slice(0, 120)}`);
  }
  if (origin !== new URL(baseUrl).origin) throw new DeltaPageError(`the delta reply links to ${origin}, not to ${new URL(baseUrl).origin}`);
}

/**
 * Stored links that another connection handed out (the account, tenant or address changed):
 * following them would ask the old service, or the new one with a token it never issued.
 */
function linksFromElsewhere(view: CalendarView, client: GraphClient): boolean {
  const links = [view.deltaLink, view.nextLink].filter((link): link is string => link !== null);
  if (links.length === 0) return false;
  const key = client.connectionKey ?? client.baseUrl;
  if (view.counters.linksFrom !== undefined) return view.counters.linksFrom !== key;
  return links.some((link) => !link.startsWith(`${client.baseUrl}/`));
}

/** The first step of a round, starting it in the store unless it resumes. */
function firstStep(store: CalendarStore, view: CalendarView, now: Date, client: GraphClient): { step: Step; resumed: boolean } {
  const linksFrom = client.connectionKey ?? client.baseUrl;
  if (view.round && view.nextLink) return { step: { path: view.nextLink }, resumed: true };
  if (view.deltaLink) {
    store.beginRound(view.id, 'incremental', now.toISOString(), linksFrom);
    return { step: { path: view.deltaLink }, resumed: false };
  }
  store.beginRound(view.id, 'full', now.toISOString(), linksFrom);
  return { step: { path: deltaPath(view.user), query: { startDateTime: view.windowStart, endDateTime: view.windowEnd } }, resumed: false };
}

/**
 * Runs one delta round of a view to its deltaLink: a full synchronisation when the view has no
 * delta state, else the changes since the stored deltaLink; a round left unfinished resumes
 * from its saved nextLink. Each page is applied (and the resume point saved) before the next is
 * asked for. An expired token (410 SyncStateNotFound) clears the delta state and starts a full
 * round; a resume point the service no longer knows (400/404) falls back to the deltaLink. Other
 * failures are thrown with the progress kept, and the next round resumes.
 */
export async function runDeltaRound(deps: DeltaRoundDeps, viewId: number): Promise<CompletedRound> {
  const { client, store, logger } = deps;
  // A client whose connection opens on first use knows its base and connection after this.
  await client.open?.();
  for (let restarts = 0; ; restarts += 1) {
    let view = store.getView(viewId);
    if (!view) throw new Error(`calendar view ${viewId} is not in the store`);
    if (linksFromElsewhere(view, client)) {
      logger.info('calendar delta links came from another connection: starting a full synchronisation', {
        connection: client.connectionKey ?? client.baseUrl,
      });
      store.clearDeltaState(viewId, 'connection');
      view = store.getView(viewId)!;
    }
    const { step: first, resumed } = firstStep(store, view, deps.now(), client);
    const prefer = `odata.maxpagesize=${view.settings.pageSize}`;
    let step: Step = first;
    try {
      for (;;) {
        const response = await client.request<unknown>({
          path: step.path,
          query: step.query,
          headers: { Prefer: prefer },
          signal: deps.signal,
        });
        const page = parseDeltaPage(response.body);
        checkLink((page.nextLink ?? page.deltaLink)!, client.baseUrl);
        const outcome = store.applyPage(viewId, page, deps.now());
        if (outcome.completed) return outcome.completed;
        deps.onPage?.();
        step = { path: page.nextLink! };
      }
    } catch (error) {
      if (restarts >= MAX_RESTARTS) throw error;
      // 410, or a 4xx whose code says the sync state is gone (Outlook answers 400 for some).
      if (
        isGraphError(error) &&
        (error.status === 410 || (error.status >= 400 && error.status < 500 && SYNC_STATE_GONE.test(error.code)))
      ) {
        logger.info('calendar delta state expired: starting a full synchronisation', { status: error.status, code: error.code });
        store.clearDeltaState(viewId);
        continue;
      }
      if (resumed && isGraphError(error) && (error.status === 400 || error.status === 404)) {
        logger.info('calendar round could not resume from its saved page: starting the round over', {
          status: error.status,
          code: error.code,
        });
        store.abandonRound(viewId);
        continue;
      }
      throw error;
    }
  }
}
