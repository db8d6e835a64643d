import type Database from 'better-sqlite3';
import { openedOnUse, openSqlite, setUpOrClose } from '@main/platform/sqlite';
import type { TransferState, TransferStatus } from '@shared/contract/transfers';

/** A transfer as the queue keeps it: the status the console sees, and how to carry it out. */
export interface TransferRow extends Omit<TransferStatus, 'bytesPerSecond'> {
  /** Uploads: `spool` (bytes sent by a browser into data_dir) or `path` (a desktop file). */
  source: 'spool' | 'path' | 'kodo';
  overwrite: boolean;
}

type Patchable = Pick<TransferRow, 'state' | 'received' | 'transferred' | 'etag' | 'error' | 'finishedAt' | 'localPath'>;
/** Fields to change; `null` clears an optional one (the error of a retried transfer). */
export type TransferPatch = { [K in keyof Patchable]?: Patchable[K] | null };

export interface TransferStore {
  insert(rows: readonly TransferRow[]): void;
  get(id: string): TransferRow | undefined;
  /** Every transfer in the order it was added. */
  list(): TransferRow[];
  /**
   * Changes a row and answers it as changed. The change is written with the others of the same
   * turn of the event loop, in one transaction at its end (or before any query that lists rows);
   * `written` settles once it is in the file.
   */
  update(id: string, patch: TransferPatch): TransferRow | undefined;
  /** Settles once every change made so far is written (a killed app keeps it). */
  written(): Promise<void>;
  remove(ids: readonly string[]): void;
  /** The oldest queued transfers, up to `limit`. */
  queued(limit: number): TransferRow[];
  /** After a restart, what was running goes back to the queue (it resumes from its record). */
  requeueRunning(): number;
  setting(name: string): string | undefined;
  setSetting(name: string, value: string): void;
  close(): void;
}

interface Row {
  id: string;
  seq: number;
  kind: 'upload' | 'download';
  account_id: string;
  bucket: string;
  key: string;
  name: string;
  local_path: string | null;
  size: number;
  received: number;
  transferred: number;
  state: TransferState;
  etag: string | null;
  error: string | null;
  created_at: number;
  finished_at: number | null;
  source: TransferRow['source'];
  overwrite: number;
  file_name: string | null;
  last_modified: number | null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS transfers (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL, account_id TEXT NOT NULL, bucket TEXT NOT NULL, key TEXT NOT NULL, name TEXT NOT NULL,
  local_path TEXT, size INTEGER NOT NULL, received INTEGER NOT NULL, transferred INTEGER NOT NULL,
  state TEXT NOT NULL, etag TEXT, error TEXT, created_at INTEGER NOT NULL, finished_at INTEGER,
  source TEXT NOT NULL, overwrite INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS transfers_state ON transfers (state, seq);
CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
`;
/** Columns added after the first release: a queue written by an older version gains them. */
const ADDED_COLUMNS = { file_name: 'TEXT', last_modified: 'INTEGER' } as const;

const fromRow = (r: Row): TransferRow => ({
  id: r.id,
  kind: r.kind,
  accountId: r.account_id,
  bucket: r.bucket,
  key: r.key,
  name: r.name,
  ...(r.local_path !== null ? { localPath: r.local_path } : {}),
  size: r.size,
  received: r.received,
  transferred: r.transferred,
  state: r.state,
  ...(r.etag !== null ? { etag: r.etag } : {}),
  ...(r.error !== null ? { error: r.error } : {}),
  createdAt: r.created_at,
  ...(r.finished_at !== null ? { finishedAt: r.finished_at } : {}),
  source: r.source,
  overwrite: r.overwrite === 1,
  ...(r.file_name !== null ? { fileName: r.file_name } : {}),
  ...(r.last_modified !== null ? { lastModified: r.last_modified } : {}),
});

/** A row with a patch applied: `null` clears an optional field. */
function patched(row: TransferRow, patch: TransferPatch): TransferRow {
  const next: Record<string, unknown> = { ...row };
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) delete next[field];
    else if (value !== undefined) next[field] = value;
  }
  return next as unknown as TransferRow;
}

const COLUMNS: Record<keyof TransferPatch, string> = {
  state: 'state',
  received: 'received',
  transferred: 'transferred',
  etag: 'etag',
  error: 'error',
  finishedAt: 'finished_at',
  localPath: 'local_path',
};

/** The transfer queue in `data_dir/storage/transfers/queue.sqlite` (WAL): it outlives the app. */
export function openTransferStore(path: string): TransferStore {
  return setUpOrClose(openSqlite(path), transferStoreOn);
}

/**
 * The queue's file opened on first need rather than at start. Until a transfer is added or a
 * setting saved, reads answer as an empty queue would, without making a file; a file an earlier
 * run left is opened by the first read, which the queue makes as it starts, to go on with what
 * was left.
 */
export function openTransferStoreOnUse(path: string): TransferStore {
  const store = openedOnUse('the transfer queue', path, openTransferStore);
  return {
    insert: (rows) => store.get().insert(rows),
    get: (id) => store.existing()?.get(id),
    list: () => store.existing()?.list() ?? [],
    // Only rows that exist change: with no file there are none.
    update: (id, patch) => store.existing()?.update(id, patch),
    written: () => store.existing()?.written() ?? Promise.resolve(),
    remove: (ids) => store.existing()?.remove(ids),
    queued: (limit) => store.existing()?.queued(limit) ?? [],
    requeueRunning: () => store.existing()?.requeueRunning() ?? 0,
    setting: (name) => store.existing()?.setting(name),
    setSetting: (name, value) => store.get().setSetting(name, value),
    close: () => store.close(),
  };
}

function transferStoreOn(db: Database.Database): TransferStore {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(SCHEMA);
  const have = new Set(
    db
      .prepare<[], { name: string }>('PRAGMA table_info(transfers)')
      .all()
      .map((c) => c.name),
  );
  for (const [column, type] of Object.entries(ADDED_COLUMNS))
    if (!have.has(column)) db.exec(`ALTER TABLE transfers ADD COLUMN ${column} ${type}`);
  const insert = db.prepare(
    `INSERT INTO transfers (id, kind, account_id, bucket, key, name, local_path, size, received, transferred, state, etag, error, created_at, finished_at, source, overwrite, file_name, last_modified)
     VALUES (@id, @kind, @account_id, @bucket, @key, @name, @local_path, @size, @received, @transferred, @state, @etag, @error, @created_at, @finished_at, @source, @overwrite, @file_name, @last_modified)`,
  );
  const byId = db.prepare<[string], Row>('SELECT * FROM transfers WHERE id = ?');
  const insertAll = db.transaction((rows: readonly TransferRow[]) => {
    for (const t of rows) {
      insert.run({
        id: t.id,
        kind: t.kind,
        account_id: t.accountId,
        bucket: t.bucket,
        key: t.key,
        name: t.name,
        local_path: t.localPath ?? null,
        size: t.size,
        received: t.received,
        transferred: t.transferred,
        state: t.state,
        etag: t.etag ?? null,
        error: t.error ?? null,
        created_at: t.createdAt,
        finished_at: t.finishedAt ?? null,
        source: t.source,
        overwrite: t.overwrite ? 1 : 0,
        file_name: t.fileName ?? null,
        last_modified: t.lastModified ?? null,
      });
    }
  });
  const removeOne = db.prepare('DELETE FROM transfers WHERE id = ?');
  const removeAll = db.transaction((ids: readonly string[]) => ids.forEach((id) => removeOne.run(id)));
  const getSetting = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE name = ?');
  const listAll = db.prepare<[], Row>('SELECT * FROM transfers ORDER BY seq');
  const queuedFirst = db.prepare<[number], Row>("SELECT * FROM transfers WHERE state = 'queued' ORDER BY seq LIMIT ?");
  // One statement per set of changed fields, prepared once: a 2,000-file upload updates often.
  const updates = new Map<string, Database.Statement>();
  const updateFor = (fields: readonly string[]) => {
    const name = fields.join(',');
    let statement = updates.get(name);
    if (!statement) {
      statement = db.prepare(
        `UPDATE transfers SET ${fields.map((field) => `${COLUMNS[field as keyof TransferPatch]} = @${field}`).join(', ')} WHERE id = @id`,
      );
      updates.set(name, statement);
    }
    return statement;
  };

  // Changes not yet written, by row: a 2,000-file folder makes several per file (running, done,
  // bytes), and one transaction per turn costs what one statement alone would.
  const pending = new Map<string, TransferPatch>();
  let waiting: Array<() => void> = [];
  let scheduled: NodeJS.Immediate | undefined;
  const writePending = db.transaction(() => {
    for (const [id, patch] of pending) {
      const entries = Object.entries(patch) as Array<[keyof TransferPatch, unknown]>;
      if (entries.length > 0)
        updateFor(entries.map(([field]) => field)).run({ id, ...Object.fromEntries(entries.map(([f, v]) => [f, v ?? null])) });
    }
  });
  const commit = () => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    if (pending.size > 0) writePending();
    pending.clear();
    const settled = waiting;
    waiting = [];
    for (const resolve of settled) resolve();
  };
  const current = (id: string): TransferRow | undefined => {
    const row = byId.get(id);
    const patch = pending.get(id);
    return row ? (patch ? patched(fromRow(row), patch) : fromRow(row)) : undefined;
  };
  // Queries that list rows see every change made before them.
  const committed =
    <A extends unknown[], R>(query: (...args: A) => R) =>
    (...args: A): R => {
      commit();
      return query(...args);
    };

  return {
    insert: committed((rows: readonly TransferRow[]) => void insertAll(rows)),
    get: current,
    list: committed(() => listAll.all().map(fromRow)),
    update(id, patch) {
      const row = current(id);
      if (!row) return undefined;
      pending.set(id, { ...pending.get(id), ...patch });
      scheduled ??= setImmediate(commit);
      return patched(row, patch);
    },
    written: () => (pending.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve))),
    remove: committed((ids: readonly string[]) => void removeAll(ids)),
    // The oldest queued rows as this turn's changes leave them, without writing those first: the
    // scheduler asks after every transfer that ends, and a write each time cost a 2,000-file
    // folder a transaction per file instead of one per turn. A row queued again this turn
    // (resumed, retried) is not in the file's queued rows yet: then the changes are written first.
    queued(limit: number) {
      let leaving = 0;
      for (const patch of pending.values()) {
        if (patch.state === 'queued') return committed(() => queuedFirst.all(limit).map(fromRow))();
        if (patch.state !== undefined) leaving++;
      }
      const rows: TransferRow[] = [];
      for (const row of queuedFirst.all(limit + leaving)) {
        const patch = pending.get(row.id);
        if (patch?.state !== undefined) continue; // started, paused or canceled this turn
        if (rows.push(patch ? patched(fromRow(row), patch) : fromRow(row)) === limit) break;
      }
      return rows;
    },
    requeueRunning: committed(() => db.prepare("UPDATE transfers SET state = 'queued' WHERE state = 'running'").run().changes),
    setting: (name) => getSetting.get(name)?.value,
    setSetting: (name, value) =>
      void db
        .prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value')
        .run(name, value),
    close: () => {
      commit();
      db.close();
    },
  };
}
