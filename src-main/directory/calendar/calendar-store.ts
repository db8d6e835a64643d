import type Database from 'better-sqlite3';
import { openedOnUse, openSqlite, setUpOrClose, type OpenedOnUse } from '@main/platform/sqlite';
import type { FullReason, RoundKind } from '@shared/contract/directory';
import type { DeltaItem, DeltaPage } from './delta-page';
import { overlapsWindow } from './event-time';
import {
  addCounts,
  emptyCounters,
  zeroCounts,
  type CalendarView,
  type CompletedRound,
  type RoundCounts,
  type RoundProgress,
  type RoundRecord,
  type SyncError,
  type SyncTarget,
  type ViewCounters,
  type ViewSettings,
} from './sync-state';

/** An event of the local copy: the JSON as Graph sent it, plus its UTC span for range queries. */
export interface StoredEvent {
  id: string;
  startMs: number;
  endMs: number;
  lastModified: string | null;
  changeKey: string | null;
  json: string;
}

/** What one page did to the local copy. */
export interface PageOutcome extends RoundCounts {
  /** Entries equal to the stored copy (replays, duplicates, a full round's known events). */
  unchanged: number;
  /** Entries older than the stored copy, not taken (see applyItem). */
  stale: number;
  /** The round this page completed (it carried the deltaLink), or null. */
  completed: CompletedRound | null;
}

interface ViewRow {
  id: number;
  user: string;
  window_start: string;
  window_end: string;
  delta_link: string | null;
  next_link: string | null;
  round: string | null;
  generation: number;
  interval_seconds: number;
  page_size: number;
  active: number;
  counters: string;
}

interface EventRow {
  id: string;
  start_ms: number;
  end_ms: number;
  last_modified: string | null;
  change_key: string | null;
  json: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS calendar_views (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user TEXT NOT NULL, window_start TEXT NOT NULL, window_end TEXT NOT NULL,
  delta_link TEXT, next_link TEXT, round TEXT,
  generation INTEGER NOT NULL DEFAULT 0,
  interval_seconds REAL NOT NULL, page_size INTEGER NOT NULL,
  active INTEGER NOT NULL DEFAULT 0,
  counters TEXT NOT NULL,
  UNIQUE (user, window_start, window_end));
CREATE TABLE IF NOT EXISTS calendar_events (
  view_id INTEGER NOT NULL, id TEXT NOT NULL,
  start_ms INTEGER NOT NULL, end_ms INTEGER NOT NULL,
  last_modified TEXT, change_key TEXT,
  seen_generation INTEGER NOT NULL,
  json TEXT NOT NULL,
  PRIMARY KEY (view_id, id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS calendar_events_start ON calendar_events (view_id, start_ms);
CREATE TABLE IF NOT EXISTS calendar_rounds (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, view_id INTEGER NOT NULL,
  kind TEXT NOT NULL, reason TEXT, started_at TEXT NOT NULL, duration_ms INTEGER NOT NULL,
  pages INTEGER NOT NULL, added INTEGER NOT NULL, updated INTEGER NOT NULL, removed INTEGER NOT NULL,
  received INTEGER NOT NULL, error TEXT);
CREATE INDEX IF NOT EXISTS calendar_rounds_view ON calendar_rounds (view_id, seq);
`;

/** Rounds kept per view in the history. */
const HISTORY_LIMIT = 500;

interface RoundRow {
  kind: RoundKind;
  reason: FullReason | null;
  started_at: string;
  duration_ms: number;
  pages: number;
  added: number;
  updated: number;
  removed: number;
  received: number;
  error: string | null;
}

function toView(row: ViewRow): CalendarView {
  return {
    id: row.id,
    user: row.user,
    windowStart: row.window_start,
    windowEnd: row.window_end,
    windowStartMs: Date.parse(row.window_start),
    windowEndMs: Date.parse(row.window_end),
    deltaLink: row.delta_link,
    nextLink: row.next_link,
    round: row.round ? JSON.parse(row.round) : null,
    generation: row.generation,
    settings: { intervalSeconds: row.interval_seconds, pageSize: row.page_size },
    active: row.active === 1,
    counters: { ...emptyCounters(), ...(JSON.parse(row.counters) as Partial<ViewCounters>) },
  };
}

const toEvent = (row: EventRow): StoredEvent => ({
  id: row.id,
  startMs: row.start_ms,
  endMs: row.end_ms,
  lastModified: row.last_modified,
  changeKey: row.change_key,
  json: row.json,
});

/** True when `incoming` is strictly older than `stored` (both Graph timestamps). */
function isOlder(incoming: string | null, stored: string | null): boolean {
  if (!incoming || !stored) return false;
  const a = Date.parse(incoming);
  const b = Date.parse(stored);
  return !Number.isNaN(a) && !Number.isNaN(b) && a < b;
}

/** The statements of the store, prepared once, when its file is opened. */
function prepareStatements(db: Database.Database) {
  return {
    view: db.prepare<[number], ViewRow>('SELECT * FROM calendar_views WHERE id = ?'),
    viewFor: db.prepare<[string, string, string], ViewRow>(
      'SELECT * FROM calendar_views WHERE user = ? AND window_start = ? AND window_end = ?',
    ),
    currentView: db.prepare<[], ViewRow>('SELECT * FROM calendar_views ORDER BY active DESC, id DESC LIMIT 1'),
    latestFor: db.prepare<[string], ViewRow>('SELECT * FROM calendar_views WHERE user = ? ORDER BY id DESC LIMIT 1'),
    insertView: db.prepare<[string, string, string, number, number, string]>(
      'INSERT INTO calendar_views (user, window_start, window_end, interval_seconds, page_size, counters) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    setSettings: db.prepare<[number, number, number, number]>(
      'UPDATE calendar_views SET interval_seconds = ?, page_size = ?, active = ? WHERE id = ?',
    ),
    setActive: db.prepare<[number, number]>('UPDATE calendar_views SET active = ? WHERE id = ?'),
    setLinks: db.prepare<[string | null, string | null, string | null, number]>(
      'UPDATE calendar_views SET delta_link = ?, next_link = ?, round = ? WHERE id = ?',
    ),
    setRound: db.prepare<[string | null, string | null, number, string, number]>(
      'UPDATE calendar_views SET next_link = ?, round = ?, generation = ?, counters = ? WHERE id = ?',
    ),
    setCounters: db.prepare<[string, number]>('UPDATE calendar_views SET counters = ? WHERE id = ?'),
    complete: db.prepare<[string, string, number]>(
      'UPDATE calendar_views SET delta_link = ?, next_link = NULL, round = NULL, counters = ? WHERE id = ?',
    ),
    otherViews: db.prepare<[number], { id: number }>('SELECT id FROM calendar_views WHERE id <> ?'),
    deleteView: db.prepare<[number]>('DELETE FROM calendar_views WHERE id = ?'),
    deleteViewEvents: db.prepare<[number]>('DELETE FROM calendar_events WHERE view_id = ?'),
    event: db.prepare<[number, string], EventRow>(
      'SELECT id, start_ms, end_ms, last_modified, change_key, json FROM calendar_events WHERE view_id = ? AND id = ?',
    ),
    upsertEvent: db.prepare<[number, string, number, number, string | null, string | null, number, string]>(
      `INSERT INTO calendar_events (view_id, id, start_ms, end_ms, last_modified, change_key, seen_generation, json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (view_id, id) DO UPDATE SET start_ms = excluded.start_ms, end_ms = excluded.end_ms,
         last_modified = excluded.last_modified, change_key = excluded.change_key,
         seen_generation = excluded.seen_generation, json = excluded.json`,
    ),
    markSeen: db.prepare<[number, number, string]>('UPDATE calendar_events SET seen_generation = ? WHERE view_id = ? AND id = ?'),
    deleteEvent: db.prepare<[number, string]>('DELETE FROM calendar_events WHERE view_id = ? AND id = ?'),
    sweep: db.prepare<[number, number]>('DELETE FROM calendar_events WHERE view_id = ? AND seen_generation < ?'),
    count: db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM calendar_events WHERE view_id = ?'),
    inRange: db.prepare<[number, number, number, number], EventRow>(
      `SELECT id, start_ms, end_ms, last_modified, change_key, json FROM calendar_events
       WHERE view_id = ? AND start_ms < ? AND (end_ms > ? OR (end_ms <= start_ms AND start_ms >= ?))
       ORDER BY start_ms, id`,
    ),
    allEvents: db.prepare<[number], EventRow>(
      'SELECT id, start_ms, end_ms, last_modified, change_key, json FROM calendar_events WHERE view_id = ? ORDER BY id',
    ),
    insertRound: db.prepare(
      `INSERT INTO calendar_rounds (view_id, kind, reason, started_at, duration_ms, pages, added, updated, removed, received, error)
       VALUES (@view_id, @kind, @reason, @started_at, @duration_ms, @pages, @added, @updated, @removed, @received, @error)`,
    ),
    trimRounds: db.prepare<[number, number, number]>(
      'DELETE FROM calendar_rounds WHERE view_id = ? AND seq <= (SELECT seq FROM calendar_rounds WHERE view_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)',
    ),
    rounds: db.prepare<[number, number], RoundRow>('SELECT * FROM calendar_rounds WHERE view_id = ? ORDER BY seq DESC LIMIT ?'),
    deleteViewRounds: db.prepare<[number]>('DELETE FROM calendar_rounds WHERE view_id = ?'),
    search: db.prepare<[number, string, number], EventRow>(
      `SELECT id, start_ms, end_ms, last_modified, change_key, json FROM calendar_events
       WHERE view_id = ? AND json_extract(json, '$.subject') LIKE ? ESCAPE '\\' ORDER BY start_ms, id LIMIT ?`,
    ),
  };
}

interface OpenCopy {
  db: Database.Database;
  sql: ReturnType<typeof prepareStatements>;
  close(): void;
}

function openCopy(path: string): OpenCopy {
  return setUpOrClose(openSqlite(path), (db) => {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.exec(SCHEMA);
    return { db, sql: prepareStatements(db), close: () => db.close() };
  });
}

/**
 * The local copy of synchronised calendar views in one SQLite file (WAL). Every page is applied
 * in one transaction together with the round's progress, so the file always holds a state some
 * sequence of whole pages produced: a crash loses at most the page in flight.
 *
 * The file is opened by the first call that needs it, not by the constructor: a copy never
 * synchronised makes no file and loads no SQLite. Until a view is opened, reads answer as an
 * empty copy would; a file an earlier run left is opened by the first read.
 */
export class CalendarStore {
  private readonly file: OpenedOnUse<OpenCopy>;

  constructor(path: string) {
    this.file = openedOnUse('the calendar copy', path, openCopy);
  }

  /** The open file, opened now if need be: for writes, and reads inside them. */
  private get db(): Database.Database {
    return this.file.get().db;
  }

  private get sql(): OpenCopy['sql'] {
    return this.file.get().sql;
  }

  /** The statements to read with, or undefined when no file was ever made (nothing to read). */
  private get reads(): OpenCopy['sql'] | undefined {
    return this.file.existing()?.sql;
  }

  getView(id: number): CalendarView | null {
    const row = this.reads?.view.get(id);
    return row ? toView(row) : null;
  }

  /** The view the sync works on (the store keeps one); `active` says if it was left running. */
  currentView(): CalendarView | null {
    const row = this.reads?.currentView.get();
    return row ? toView(row) : null;
  }

  /** The most recently created view of a user: its window is reused when none is given. */
  latestViewOf(user: string): CalendarView | null {
    const row = this.reads?.latestFor.get(user);
    return row ? toView(row) : null;
  }

  /**
   * The view of a target, created when new, marked active with these settings. The local copy
   * keeps one view: the others (another user or window) are dropped with their events, since
   * their delta state encodes a window nobody asks for any more.
   */
  openView(target: SyncTarget, settings: ViewSettings): CalendarView {
    return this.db.transaction(() => {
      let row = this.sql.viewFor.get(target.user, target.windowStart, target.windowEnd);
      if (!row) {
        const info = this.sql.insertView.run(
          target.user,
          target.windowStart,
          target.windowEnd,
          settings.intervalSeconds,
          settings.pageSize,
          JSON.stringify(emptyCounters()),
        );
        row = this.sql.view.get(Number(info.lastInsertRowid))!;
      }
      this.sql.setSettings.run(settings.intervalSeconds, settings.pageSize, 1, row.id);
      for (const other of this.sql.otherViews.all(row.id)) {
        this.sql.deleteViewEvents.run(other.id);
        this.sql.deleteViewRounds.run(other.id);
        this.sql.deleteView.run(other.id);
      }
      return toView(this.sql.view.get(row.id)!);
    })();
  }

  setActive(id: number, active: boolean): void {
    this.sql.setActive.run(active ? 1 : 0, id);
  }

  /**
   * Starts a round. A full round takes a new generation: events it does not deliver are swept
   * at its end, which is how deletions made while no delta state existed reach the local copy.
   * The old events stay readable until then.
   */
  beginRound(id: number, kind: RoundKind, startedAt: string, linksFrom?: string): CalendarView {
    return this.db.transaction(() => {
      const view = this.mustGetView(id);
      const generation = kind === 'full' ? view.generation + 1 : view.generation;
      const { pendingFullReason, ...rest } = view.counters;
      const counters = {
        ...(kind === 'full' ? { ...rest, fullSyncs: view.counters.fullSyncs + 1 } : view.counters),
        ...(linksFrom !== undefined ? { linksFrom } : {}),
      };
      const round: RoundProgress = {
        kind,
        startedAt,
        generation,
        received: 0,
        ...zeroCounts(),
        ...(kind === 'full' ? { reason: pendingFullReason ?? 'first' } : {}),
      };
      this.sql.setRound.run(null, JSON.stringify(round), generation, JSON.stringify(counters), id);
      return this.mustGetView(id);
    })();
  }

  /** Forgets the delta state (an expired token, 410, or a resync asked for): the next round is a full one. */
  clearDeltaState(id: number, reason: FullReason = 'expired'): void {
    this.db.transaction(() => {
      this.sql.setLinks.run(null, null, null, id);
      this.updateCounters(id, (c) => ({ ...c, pendingFullReason: reason }));
    })();
  }

  /** The view's rounds, newest first: what each did, or why it failed. */
  roundHistory(id: number, limit = 100): RoundRecord[] {
    return (this.reads?.rounds.all(id, limit) ?? []).map((r) => ({
      kind: r.kind,
      ...(r.reason ? { reason: r.reason } : {}),
      startedAt: r.started_at,
      durationMs: r.duration_ms,
      pages: r.pages,
      added: r.added,
      updated: r.updated,
      removed: r.removed,
      received: r.received,
      error: r.error,
    }));
  }

  private recordRound(id: number, round: CompletedRound, error: string | null): void {
    this.sql.insertRound.run({
      view_id: id,
      kind: round.kind,
      reason: round.reason ?? null,
      started_at: round.startedAt,
      duration_ms: Math.round(round.durationMs),
      pages: round.pages,
      added: round.added,
      updated: round.updated,
      removed: round.removed,
      received: round.received,
      error,
    });
    this.sql.trimRounds.run(id, id, HISTORY_LIMIT);
  }

  /** Drops the round in progress but keeps the deltaLink: the next round starts over from it. */
  abandonRound(id: number): void {
    const view = this.mustGetView(id);
    this.sql.setLinks.run(view.deltaLink, null, null, id);
  }

  /** A round that failed: the error kept, and the round in the history with what it had done. */
  recordFailure(id: number, error: SyncError): void {
    this.db.transaction(() => {
      this.updateCounters(id, (c) => ({ ...c, lastError: error }));
      const round = this.mustGetView(id).round;
      if (!round) return;
      const { generation: _generation, ...progress } = round;
      this.recordRound(id, { ...progress, durationMs: Math.max(0, Date.parse(error.at) - Date.parse(round.startedAt)) }, error.message);
    })();
  }

  addThrottled(id: number, count = 1): void {
    this.updateCounters(id, (c) => ({ ...c, throttled: c.throttled + count }));
  }

  /**
   * Applies one delta page in one transaction. Idempotent: applying the same page again finds
   * every entry equal to the stored copy (or already gone) and changes nothing. When the page
   * carries the deltaLink, the round completes in the same transaction: deltaLink saved, a full
   * round's unseen events swept, counters added up.
   */
  applyPage(id: number, page: DeltaPage, now: Date): PageOutcome {
    return this.db.transaction((): PageOutcome => {
      const view = this.mustGetView(id);
      const generation = view.round?.generation ?? view.generation;
      const outcome: PageOutcome = { ...zeroCounts(), pages: 1, unchanged: 0, stale: 0, completed: null };
      for (const item of page.items) this.applyItem(view, generation, item, outcome);
      if (!view.round) return outcome; // a page outside any round (a replay) only touches events

      let round = { ...addCounts(view.round, outcome), received: (view.round.received ?? 0) + page.items.length };
      if (!page.deltaLink) {
        this.sql.setRound.run(page.nextLink, JSON.stringify(round), view.generation, JSON.stringify(view.counters), id);
        return outcome;
      }
      if (round.kind === 'full') {
        const swept = this.sql.sweep.run(id, generation).changes;
        outcome.removed += swept;
        round = { ...round, removed: round.removed + swept };
      }
      const completed: CompletedRound = {
        kind: round.kind,
        startedAt: round.startedAt,
        durationMs: Math.max(0, now.getTime() - Date.parse(round.startedAt)),
        pages: round.pages,
        added: round.added,
        updated: round.updated,
        removed: round.removed,
        received: round.received,
        ...(round.reason ? { reason: round.reason } : {}),
      };
      this.recordRound(id, completed, null);
      const counters: ViewCounters = {
        ...view.counters,
        rounds: view.counters.rounds + 1,
        totals: addCounts(view.counters.totals, completed),
        lastRound: completed,
        lastSuccessAt: now.toISOString(),
      };
      this.sql.complete.run(page.deltaLink, JSON.stringify(counters), id);
      outcome.completed = completed;
      return outcome;
    })();
  }

  /** Events whose subject holds `text` (case-insensitive for ASCII), by start time. */
  searchSubject(id: number, text: string, limit: number): StoredEvent[] {
    const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return (this.reads?.search.all(id, pattern, limit) ?? []).map(toEvent);
  }

  eventsInRange(id: number, startMs: number, endMs: number): StoredEvent[] {
    return (this.reads?.inRange.all(id, endMs, startMs, startMs) ?? []).map(toEvent);
  }

  allEvents(id: number): StoredEvent[] {
    return (this.reads?.allEvents.all(id) ?? []).map(toEvent);
  }

  countEvents(id: number): number {
    const reads = this.reads;
    return reads ? reads.count.get(id)!.n : 0;
  }

  close(): void {
    this.file.close();
  }

  /**
   * One entry. An event whose lastModifiedDateTime is older than the stored one is not taken: a
   * delta entry always carries the event's state when its page was produced, so an older one can
   * only be a duplicate or a replay of a page fetched before a later change was applied, and
   * taking it would roll the copy back until the event changes again, which may be never.
   * Equal timestamps with another changeKey are taken (two edits within one tick). A removal
   * carries no timestamp and cannot be ordered; the sync never replays a page across rounds (it
   * resumes at the latest nextLink or goes back to the deltaLink, whose answer is current).
   */
  private applyItem(view: CalendarView, generation: number, item: DeltaItem, outcome: PageOutcome): void {
    const stored = this.sql.event.get(view.id, item.id);
    if (item.kind === 'event' && stored && item.json !== stored.json && isOlder(item.lastModified, stored.last_modified)) {
      // Checked before the window: an old copy placed elsewhere must not remove the newer one.
      this.sql.markSeen.run(generation, view.id, item.id);
      outcome.stale += 1;
      return;
    }
    if (item.kind !== 'event' || !overlapsWindow(item.startMs, item.endMs, view.windowStartMs, view.windowEndMs)) {
      // Deleted, or changed outside the window (Graph reports both as @removed, and an update
      // can move an event out): either way it leaves the local copy of this window.
      if (stored) {
        this.sql.deleteEvent.run(view.id, item.id);
        outcome.removed += 1;
      }
      return;
    }
    if (
      stored &&
      (stored.json === item.json ||
        (item.changeKey !== null && item.changeKey === stored.change_key && item.lastModified === stored.last_modified))
    ) {
      this.sql.markSeen.run(generation, view.id, item.id);
      outcome.unchanged += 1;
      return;
    }
    this.sql.upsertEvent.run(view.id, item.id, item.startMs, item.endMs, item.lastModified, item.changeKey, generation, item.json);
    outcome[stored ? 'updated' : 'added'] += 1;
  }

  private mustGetView(id: number): CalendarView {
    const view = this.getView(id);
    if (!view) throw new Error(`calendar view ${id} is not in the store`);
    return view;
  }

  private updateCounters(id: number, change: (counters: ViewCounters) => ViewCounters): void {
    this.db.transaction(() => {
      const view = this.mustGetView(id);
      this.sql.setCounters.run(JSON.stringify(change(view.counters)), id);
    })();
  }
}
