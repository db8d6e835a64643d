import type { Database, Statement } from 'better-sqlite3';
import { openSqlite } from '../../platform/sqlite';
import { randomBytes } from 'node:crypto';

/** The state of one event series or single event as the emulator keeps it (see event-model.ts). */
export interface EventRow {
  id: string;
  user_id: string;
  data: string;
  seq: number;
}

/** A changed event within a range of the change log: its state just before the first change. */
export interface ChangedEvent {
  eventId: string;
  /** JSON of the event before the range, or null when it did not exist then. */
  before: string | null;
}

/**
 * The emulator's SQLite database: directory objects, calendar events and the calendar change
 * log. Every calendar write takes the next value of one increasing sequence and records the
 * event's previous state under it, in the same transaction as the write; a delta token holds a
 * sequence number, so "what changed since the token" is a range of the log. The log is bounded:
 * trimming it raises `pruned_through`, and tokens older than that get 410 SyncStateNotFound.
 */
export class GraphStore {
  private readonly db: Database;

  constructor(
    path: string,
    private readonly changeLogLimit: number,
  ) {
    this.db = openSqlite(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS events (id TEXT PRIMARY KEY, user_id TEXT NOT NULL, data TEXT NOT NULL, seq INTEGER NOT NULL);
      CREATE INDEX IF NOT EXISTS events_by_user ON events (user_id, id);
      CREATE TABLE IF NOT EXISTS changes (seq INTEGER PRIMARY KEY, user_id TEXT NOT NULL, event_id TEXT NOT NULL, before TEXT);
      CREATE INDEX IF NOT EXISTS changes_by_user ON changes (user_id, seq);
      CREATE TABLE IF NOT EXISTS objects (kind TEXT NOT NULL, id TEXT NOT NULL, parent TEXT, data TEXT NOT NULL, PRIMARY KEY (kind, id));
      CREATE INDEX IF NOT EXISTS objects_by_parent ON objects (kind, parent);
    `);
  }

  private readonly statements = new Map<string, Statement>();

  /** A statement prepared once per store: every Graph request and event write runs several. */
  private sql(text: string): Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /** Runs `fn` in one transaction: all of its writes land, or none. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  meta(key: string): string | undefined {
    const row = this.sql('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value;
  }

  setMeta(key: string, value: string): void {
    this.sql('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  /** A random secret made on first use and kept, so signed tokens survive a restart. */
  secret(name: string): Buffer {
    const existing = this.meta(name);
    if (existing) return Buffer.from(existing, 'base64');
    const fresh = randomBytes(32);
    this.setMeta(name, fresh.toString('base64'));
    return fresh;
  }

  // ---- calendar ----

  lastSeq(): number {
    return Number(this.meta('last_seq') ?? 0);
  }

  /** The highest sequence removed from the change log; tokens older than it cannot be served. */
  prunedThrough(): number {
    return Number(this.meta('pruned_through') ?? 0);
  }

  event(id: string): EventRow | undefined {
    return this.sql('SELECT id, user_id, data, seq FROM events WHERE id = ?').get(id) as EventRow | undefined;
  }

  eventsOf(userId: string): EventRow[] {
    return this.sql('SELECT id, user_id, data, seq FROM events WHERE user_id = ? ORDER BY id').all(userId) as EventRow[];
  }

  /** Up to `limit` events of a user from the id `fromId` on (inclusive), in id order: one page's worth. */
  eventsFrom(userId: string, fromId: string, limit: number): EventRow[] {
    return this.sql('SELECT id, user_id, data, seq FROM events WHERE user_id = ? AND id >= ? ORDER BY id LIMIT ?').all(
      userId,
      fromId,
      limit,
    ) as EventRow[];
  }

  /** Creates or replaces an event (data null deletes it) and logs the change. Call inside transaction(). */
  writeEvent(userId: string, id: string, data: string | null): number {
    const before = this.event(id);
    const seq = this.lastSeq() + 1;
    this.setMeta('last_seq', String(seq));
    this.sql('INSERT INTO changes (seq, user_id, event_id, before) VALUES (?, ?, ?, ?)').run(seq, userId, id, before?.data ?? null);
    if (data === null) this.sql('DELETE FROM events WHERE id = ?').run(id);
    else
      this.sql(
        'INSERT INTO events (id, user_id, data, seq) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data, seq = excluded.seq',
      ).run(id, userId, data, seq);
    this.trimChangeLog(this.changeLogLimit);
    return seq;
  }

  /** Events of `userId` changed in (from, to], each with its state as of `from`. */
  changedEvents(userId: string, from: number, to: number): ChangedEvent[] {
    const rows = this.sql('SELECT event_id, before FROM changes WHERE user_id = ? AND seq > ? AND seq <= ? ORDER BY seq').all(
      userId,
      from,
      to,
    ) as { event_id: string; before: string | null }[];
    const first = new Map<string, string | null>();
    for (const row of rows) if (!first.has(row.event_id)) first.set(row.event_id, row.before);
    return [...first].map(([eventId, before]) => ({ eventId, before }));
  }

  /** Keeps the newest `keep` log entries; older delta tokens then answer 410. */
  trimChangeLog(keep: number): void {
    const cut = this.sql('SELECT seq FROM changes ORDER BY seq DESC LIMIT 1 OFFSET ?').get(keep) as { seq: number } | undefined;
    if (!cut) return;
    this.sql('DELETE FROM changes WHERE seq <= ?').run(cut.seq);
    if (cut.seq > this.prunedThrough()) this.setMeta('pruned_through', String(cut.seq));
  }

  /** Forgets the whole change log: every delta and skip token issued so far becomes stale (410). */
  evictChangeLog(): void {
    this.transaction(() => {
      // A fresh sequence value marks the cut, so tokens issued before it (which hold at most the
      // old value) are older than the log, and tokens issued after it are not.
      const cut = this.lastSeq() + 1;
      this.sql('DELETE FROM changes').run();
      this.setMeta('last_seq', String(cut));
      this.setMeta('pruned_through', String(cut));
    });
  }

  // ---- directory objects ----

  object(kind: string, id: string): Record<string, unknown> | undefined {
    const row = this.sql('SELECT data FROM objects WHERE kind = ? AND id = ?').get(kind, id) as { data: string } | undefined;
    return row ? (JSON.parse(row.data) as Record<string, unknown>) : undefined;
  }

  objects(kind: string, parent?: string): Record<string, unknown>[] {
    const rows = (
      parent === undefined
        ? this.sql('SELECT data FROM objects WHERE kind = ? ORDER BY rowid').all(kind)
        : this.sql('SELECT data FROM objects WHERE kind = ? AND parent = ? ORDER BY rowid').all(kind, parent)
    ) as { data: string }[];
    return rows.map((r) => JSON.parse(r.data) as Record<string, unknown>);
  }

  putObject(kind: string, id: string, parent: string | null, data: Record<string, unknown>): void {
    this.sql(
      'INSERT INTO objects (kind, id, parent, data) VALUES (?, ?, ?, ?) ON CONFLICT (kind, id) DO UPDATE SET parent = excluded.parent, data = excluded.data',
    ).run(kind, id, parent, JSON.stringify(data));
  }

  deleteObject(kind: string, id: string): void {
    this.sql('DELETE FROM objects WHERE kind = ? AND id = ?').run(kind, id);
  }

  close(): void {
    this.db.close();
  }
}
