import { GraphError, badRequest } from './graph-error';
import type { GraphStore } from './graph-store';
import type { StoredEvent } from './event-model';
import { instancesInWindow } from './event-instances';
import { removedEntry, renderEvent, type EventOwner, type ViewZone } from './event-view';
import { decodeSyncState, encodeSyncState, type SyncState } from './sync-token';
import type { TimeZones } from './time-zones';

export const DEFAULT_DELTA_PAGE = 10;
export const MAX_DELTA_PAGE = 1000;
/**
 * A page also ends at this many bytes of JSON (maxpagesize is a preference, as in Graph): a page
 * of large events must not take hundreds of megabytes to build and send.
 */
const MAX_DELTA_PAGE_BYTES = 4 * 1024 * 1024;

export interface DeltaRequest {
  owner: EventOwner;
  query: URLSearchParams;
  pageSize: number;
  view: ViewZone;
  /** The URL of a fresh synchronisation of a window: the `Location` of a 410. */
  restartUrl?: (windowStart: string, windowEnd: string) => string;
}

export interface DeltaPage {
  value: Record<string, unknown>[];
  /** Exactly one of the two is set: more pages in this round, or the round is complete. */
  skipToken?: string;
  deltaToken?: string;
}

const UNSUPPORTED = ['$expand', '$filter', '$orderby', '$search'];

/** A window bound: ISO 8601, offsets honoured, none means UTC. */
function parseWindowBound(name: string, text: string): number {
  const withZone = /([zZ]|[+-]\d{2}:?\d{2})$/.test(text) || /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : `${text}Z`;
  const ms = Date.parse(withZone);
  if (Number.isNaN(ms)) throw badRequest('ErrorInvalidParameter', `The value '${text}' of parameter '${name}' is not a valid date-time.`);
  return ms;
}

/** startDateTime/endDateTime of calendarView and of the first delta call. */
export function parseWindow(query: URLSearchParams): { start: number; end: number } {
  const startText = query.get('startDateTime') ?? query.get('startdatetime');
  const endText = query.get('endDateTime') ?? query.get('enddatetime');
  if (!startText || !endText)
    throw badRequest(
      'ErrorInvalidParameter',
      'This request requires a time window specified by the query string parameters StartDateTime and EndDateTime.',
    );
  const start = parseWindowBound('StartDateTime', startText);
  const end = parseWindowBound('EndDateTime', endText);
  if (end <= start) throw badRequest('ErrorInvalidParameter', 'The parameter EndDateTime must be later than StartDateTime.');
  return { start, end };
}

/**
 * calendarView/delta for one user. A round reads the change log up to the sequence current at
 * its first page, ordered by event id, and pages by (event, entries sent) so a write during the
 * round never breaks it: what changes meanwhile comes again in the next round.
 */
export class CalendarDelta {
  constructor(
    private readonly store: GraphStore,
    private readonly zones: TimeZones,
    private readonly tokenKey: Buffer,
  ) {}

  page(request: DeltaRequest): DeltaPage {
    const state = this.stateFor(request);
    const to = state.kind === 'skip' ? state.to! : this.store.lastSeq();
    // A round whose changes (or whose resulting deltaLink) reach before the log's start cannot be served.
    const pruned = this.store.prunedThrough();
    if ((state.from >= 0 && state.from < pruned) || (state.kind === 'skip' && to < pruned)) {
      throw new GraphError(
        410,
        'SyncStateNotFound',
        `The sync state generation is not found; generation=${state.from};[highest=${this.store.lastSeq()}]. Start a full synchronisation.`,
        request.restartUrl
          ? { Location: request.restartUrl(new Date(state.windowStart).toISOString(), new Date(state.windowEnd).toISOString()) }
          : {},
      );
    }
    const out: Record<string, unknown>[] = [];
    let bytes = 0;
    let cursor: SyncState['cursor'];
    let more = false;
    for (const { id, entries } of this.candidates(state, to, request)) {
      if (state.cursor && id < state.cursor.event) continue;
      const skip = state.cursor && id === state.cursor.event ? state.cursor.sent : 0;
      for (let i = skip; i < entries.length; i++) {
        if (out.length === request.pageSize) {
          more = true;
          break;
        }
        const entry = entries[i]!();
        const size = JSON.stringify(entry).length;
        if (out.length > 0 && bytes + size > MAX_DELTA_PAGE_BYTES) {
          more = true;
          break;
        }
        out.push(entry);
        bytes += size;
        cursor = { event: id, sent: i + 1 };
      }
      if (more) break;
    }
    const base = { user: state.user, windowStart: state.windowStart, windowEnd: state.windowEnd };
    if (more) return { value: out, skipToken: encodeSyncState({ ...base, kind: 'skip', from: state.from, to, cursor }, this.tokenKey) };
    return { value: out, deltaToken: encodeSyncState({ ...base, kind: 'delta', from: to }, this.tokenKey) };
  }

  private stateFor(request: DeltaRequest): SyncState {
    const { query } = request;
    for (const name of UNSUPPORTED) {
      if (query.has(name))
        throw badRequest(
          'ErrorInvalidUrlQuery',
          `The query parameter '${name}' is not supported with change tracking over the 'CalendarView' resource.`,
        );
    }
    const delta = query.get('$deltatoken') ?? query.get('$deltaToken');
    const skip = query.get('$skiptoken') ?? query.get('$skipToken');
    if (delta && skip) throw badRequest('ErrorInvalidUrlQuery', 'Use either $deltatoken or $skiptoken, not both.');
    let state: SyncState;
    if (delta) state = decodeSyncState(delta, 'delta', this.tokenKey);
    else if (skip) state = decodeSyncState(skip, 'skip', this.tokenKey);
    else {
      const window = parseWindow(query);
      return { kind: 'delta', user: request.owner.id, windowStart: window.start, windowEnd: window.end, from: -1 };
    }
    if (state.user !== request.owner.id)
      throw badRequest(delta ? 'InvalidDeltaToken' : 'InvalidSkipToken', 'The token was issued for another mailbox.');
    return state;
  }

  /** The round's events in id order, each with its entries built on demand. */
  private *candidates(
    state: SyncState,
    to: number,
    request: DeltaRequest,
  ): Generator<{ id: string; entries: (() => Record<string, unknown>)[] }> {
    const { windowStart: ws, windowEnd: we } = state;
    const render = (ev: StoredEvent) =>
      instancesInWindow(ev, ws, we, this.zones).map((instance) => () => renderEvent(instance, request.owner, request.view, this.zones));
    if (state.from < 0) {
      // From the page's cursor on, a batch at a time: a full sync of a large calendar reads each
      // event once over the whole round, not the whole calendar for every page.
      const batch = request.pageSize + 1;
      let fromId = state.cursor?.event ?? '';
      for (;;) {
        const rows = this.store.eventsFrom(state.user, fromId, batch);
        for (const row of rows) yield { id: row.id, entries: render(JSON.parse(row.data) as StoredEvent) };
        if (rows.length < batch) return;
        fromId = `${rows[rows.length - 1]!.id}\u0000`;
      }
    }
    const changed = this.store
      .changedEvents(state.user, state.from, to)
      .sort((a, b) => (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0));
    for (const change of changed) {
      const row = this.store.event(change.eventId);
      const current = row ? (JSON.parse(row.data) as StoredEvent) : undefined;
      const before = change.before ? (JSON.parse(change.before) as StoredEvent) : undefined;
      const now = current ? instancesInWindow(current, ws, we, this.zones) : [];
      const nowIds = new Set(now.map((i) => i.id));
      const gone = before
        ? instancesInWindow(before, ws, we, this.zones)
            .map((i) => i.id)
            .filter((id) => !nowIds.has(id))
        : [];
      // Added, changed or deleted with nothing left in the window: reported as removed (the
      // client drops it if it had it, and ignores it otherwise).
      if (now.length === 0 && !gone.includes(change.eventId)) gone.push(change.eventId);
      const entries = now.map((instance) => () => renderEvent(instance, request.owner, request.view, this.zones));
      for (const id of gone) entries.push(() => removedEntry(id));
      yield { id: change.eventId, entries };
    }
  }
}
