import type Database from 'better-sqlite3';
import { openedOnUse, openSqlite, setUpOrClose } from '@main/platform/sqlite';
import {
  STORAGE_CLASSES,
  type FolderEntry,
  type IndexStatus,
  type ObjectSummary,
  type SortField,
  type SortedPage,
} from '@shared/contract/storage';

/** A bucket of an account: every row of the index belongs to one. */
export interface IndexScope {
  accountId: string;
  bucket: string;
}

/** What the store keeps of one listing of a folder's subtree. */
export interface ScanRecord {
  prefix: string;
  state: 'running' | 'complete' | 'failed';
  listed: number;
  estimate: number;
  bytes: number;
  generation: number;
  /** Where the listing goes on after an interruption. */
  marker: string | null;
  firstKey: string | null;
  completedAt: number | null;
  error: string | null;
}

export interface IndexStore {
  scan(scope: IndexScope, prefix: string): ScanRecord | undefined;
  /** A new listing of the prefix: rows it does not see again are dropped when it completes. */
  beginScan(scope: IndexScope, prefix: string): ScanRecord;
  /** One listed page, stored with the scan's progress in one transaction. */
  addPage(
    scope: IndexScope,
    scan: ScanRecord,
    objects: readonly ObjectSummary[],
    progress: Pick<ScanRecord, 'marker' | 'estimate' | 'firstKey'>,
  ): ScanRecord;
  completeScan(scope: IndexScope, scan: ScanRecord, now: number): ScanRecord;
  failScan(scope: IndexScope, scan: ScanRecord, error: string): ScanRecord;
  /** What is known of a folder: its own scan, or what a complete scan of a parent folder holds. */
  status(scope: IndexScope, prefix: string): IndexStatus;
  /** One level of a folder, sorted over everything the index holds of it; `search` keeps names that start with it. */
  level(
    scope: IndexScope,
    prefix: string,
    sort: SortField,
    descending: boolean,
    offset: number,
    limit: number,
    search?: string,
  ): SortedPage;
  /** Keeps the index true after the console's own changes (delete, move, copy, upload). */
  removeKeys(scope: IndexScope, keys: readonly string[]): void;
  /** What the index holds of one key. */
  object(scope: IndexScope, key: string): ObjectSummary | undefined;
  putObjects(scope: IndexScope, objects: readonly ObjectSummary[]): void;
  close(): void;
}

const scopeId = ({ accountId, bucket }: IndexScope) => `${accountId}/${bucket}`;

/**
 * The folder whose level lists a key as a file (`a/b/c.txt` → `a/b/`). A folder marker
 * (`a/b/`, a zero-byte object) is kept as its own folder: it makes `a/b/` appear in `a/` and is
 * never a file anywhere.
 */
export function parentOf(key: string): string {
  return key.slice(0, key.lastIndexOf('/') + 1);
}

/** The first string after every string that starts with `prefix` (byte order), or undefined for ''. */
export function prefixEnd(prefix: string): string | undefined {
  if (prefix === '') return undefined;
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

const FILE_ORDER: Record<SortField, string> = { name: 'key', size: 'size', time: 'put_time', type: 'mime' };
const FOLDER_ORDER: Record<SortField, string> = { name: 'folder', size: 'bytes', time: 'put_time', type: 'folder' };

interface ScanRow {
  prefix: string;
  state: ScanRecord['state'];
  listed: number;
  estimate: number;
  bytes: number;
  generation: number;
  marker: string | null;
  first_key: string | null;
  completed_at: number | null;
  error: string | null;
}

interface ObjectRow {
  key: string;
  size: number;
  hash: string;
  mime: string;
  put_time: number;
  class: number;
}

const summaryOf = (row: ObjectRow): ObjectSummary => ({
  key: row.key,
  size: row.size,
  hash: row.hash,
  mimeType: row.mime,
  putTime: row.put_time,
  storageClass: STORAGE_CLASSES[row.class] ?? 'standard',
});

const recordOf = (row: ScanRow): ScanRecord => ({
  prefix: row.prefix,
  state: row.state,
  listed: row.listed,
  estimate: row.estimate,
  bytes: row.bytes,
  generation: row.generation,
  marker: row.marker,
  firstKey: row.first_key,
  completedAt: row.completed_at,
  error: row.error,
});

/** A folder whose own listing is running or failed: how far it got (a guess is never below what was listed). */
const unfinishedStatus = ({ accountId, bucket }: IndexScope, own: ScanRow): IndexStatus => ({
  accountId,
  bucket,
  prefix: own.prefix,
  state: own.state,
  listed: own.listed,
  estimate: Math.max(own.estimate, own.listed),
  bytes: own.bytes,
  ...(own.completed_at ? { completedAt: own.completed_at } : {}),
  ...(own.error ? { error: own.error } : {}),
});

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS objects (
    scope TEXT NOT NULL, key TEXT NOT NULL, parent TEXT NOT NULL,
    size INTEGER NOT NULL, hash TEXT NOT NULL, mime TEXT NOT NULL, put_time INTEGER NOT NULL, class INTEGER NOT NULL,
    generation INTEGER NOT NULL,
    PRIMARY KEY (scope, key)
  );
  CREATE INDEX IF NOT EXISTS objects_by_size ON objects (scope, parent, size);
  CREATE INDEX IF NOT EXISTS objects_by_time ON objects (scope, parent, put_time);
  CREATE INDEX IF NOT EXISTS objects_by_type ON objects (scope, parent, mime);
  CREATE INDEX IF NOT EXISTS objects_by_name ON objects (scope, parent, key);
  CREATE TABLE IF NOT EXISTS scans (
    scope TEXT NOT NULL, prefix TEXT NOT NULL, state TEXT NOT NULL,
    listed INTEGER NOT NULL, estimate INTEGER NOT NULL, bytes INTEGER NOT NULL, generation INTEGER NOT NULL,
    marker TEXT, first_key TEXT, completed_at INTEGER, error TEXT,
    PRIMARY KEY (scope, prefix)
  );
`;

/** The statements that read one folder level: its sub-folders with their totals, its files, their count. */
function prepareLevel(db: Database.Database, root: boolean, sort: SortField, descending: boolean) {
  const dir = descending ? 'DESC' : 'ASC';
  const range = root ? '' : 'AND key >= @from AND key < @end';
  const folders = db.prepare<Record<string, unknown>, { folder: string; files: number; bytes: number; put_time: number }>(`
    SELECT substr(key, 1, @n + instr(substr(key, @n + 1), '/')) AS folder,
           count(*) - sum(substr(key, -1) = '/') AS files, sum(size) AS bytes, max(put_time) AS put_time
    FROM objects WHERE scope = @scope ${range} AND parent != @prefix
    GROUP BY folder ORDER BY ${FOLDER_ORDER[sort]} ${dir}, folder ${dir}`);
  const files = db.prepare<Record<string, unknown>, ObjectRow>(`
    SELECT key, size, hash, mime, put_time, class FROM objects
    WHERE scope = @scope AND parent = @prefix AND key != @prefix ${range}
    ORDER BY ${FILE_ORDER[sort]} ${dir}, key ${dir} LIMIT @limit OFFSET @offset`);
  const fileCount = db.prepare<Record<string, unknown>, { n: number }>(
    `SELECT count(*) AS n FROM objects WHERE scope = @scope AND parent = @prefix AND key != @prefix ${range}`,
  );
  return { folders, files, fileCount };
}

/**
 * The local index of listed keys (`data_dir/storage/index.sqlite`): what lets the console sort a
 * folder of 100k objects by size and count a folder's files and bytes, which Kodo's listing
 * cannot. Each key row carries its parent folder so one level reads through an index.
 */
export function openIndexStore(path: string): IndexStore {
  return setUpOrClose(openSqlite(path), indexStoreOn);
}

/**
 * The index opened by the first call that needs it (the console asks a folder's index status as
 * it browses one) rather than at start: an engine whose storage is never browsed makes no file.
 */
export function openIndexStoreOnUse(path: string): IndexStore {
  const store = openedOnUse('the folder index', path, openIndexStore);
  return {
    scan: (scope, prefix) => store.get().scan(scope, prefix),
    beginScan: (scope, prefix) => store.get().beginScan(scope, prefix),
    addPage: (scope, scan, objects, progress) => store.get().addPage(scope, scan, objects, progress),
    completeScan: (scope, scan, now) => store.get().completeScan(scope, scan, now),
    failScan: (scope, scan, error) => store.get().failScan(scope, scan, error),
    status: (scope, prefix) => store.get().status(scope, prefix),
    level: (scope, prefix, sort, descending, offset, limit, search) =>
      store.get().level(scope, prefix, sort, descending, offset, limit, search),
    removeKeys: (scope, keys) => store.get().removeKeys(scope, keys),
    object: (scope, key) => store.get().object(scope, key),
    putObjects: (scope, objects) => store.get().putObjects(scope, objects),
    close: () => store.close(),
  };
}

function indexStoreOn(db: Database.Database): IndexStore {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(SCHEMA);

  const selectScan = db.prepare<[string, string], ScanRow>('SELECT * FROM scans WHERE scope = ? AND prefix = ?');
  const selectScans = db.prepare<[string], ScanRow>('SELECT * FROM scans WHERE scope = ?');
  const upsertScan =
    db.prepare(`INSERT INTO scans (scope, prefix, state, listed, estimate, bytes, generation, marker, first_key, completed_at, error)
    VALUES (@scope, @prefix, @state, @listed, @estimate, @bytes, @generation, @marker, @firstKey, @completedAt, @error)
    ON CONFLICT (scope, prefix) DO UPDATE SET state = excluded.state, listed = excluded.listed, estimate = excluded.estimate, bytes = excluded.bytes,
      generation = excluded.generation, marker = excluded.marker, first_key = excluded.first_key, completed_at = excluded.completed_at, error = excluded.error`);
  const maxGeneration = db.prepare<[], { g: number | null }>('SELECT max(generation) AS g FROM scans');
  const upsertObject = db.prepare(`INSERT INTO objects (scope, key, parent, size, hash, mime, put_time, class, generation)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (scope, key) DO UPDATE SET parent = excluded.parent, size = excluded.size, hash = excluded.hash, mime = excluded.mime,
      put_time = excluded.put_time, class = excluded.class, generation = excluded.generation`);
  const selectObject = db.prepare<[string, string], ObjectRow>(
    'SELECT key, size, hash, mime, put_time, class FROM objects WHERE scope = ? AND key = ?',
  );
  const deleteObject = db.prepare('DELETE FROM objects WHERE scope = ? AND key = ?');
  const dropStaleAll = db.prepare('DELETE FROM objects WHERE scope = ? AND generation < ?');
  const dropStaleRange = db.prepare('DELETE FROM objects WHERE scope = ? AND key >= ? AND key < ? AND generation < ?');
  const totalsAll = db.prepare<[string], { files: number; bytes: number | null }>(
    "SELECT count(*) - sum(substr(key, -1) = '/') AS files, sum(size) AS bytes FROM objects WHERE scope = ?",
  );
  const totalsRange = db.prepare<[string, string, string], { files: number; bytes: number | null }>(
    "SELECT count(*) - coalesce(sum(substr(key, -1) = '/'), 0) AS files, sum(size) AS bytes FROM objects WHERE scope = ? AND key >= ? AND key < ?",
  );

  const save = (scope: IndexScope, record: ScanRecord): ScanRecord => {
    upsertScan.run({ scope: scopeId(scope), ...record });
    return record;
  };

  const totals = (scope: IndexScope, prefix: string) => {
    const end = prefixEnd(prefix);
    const row = end === undefined ? totalsAll.get(scopeId(scope)) : totalsRange.get(scopeId(scope), prefix, end);
    return { files: row?.files ?? 0, bytes: row?.bytes ?? 0 };
  };

  const putRows = (scope: IndexScope, objects: readonly ObjectSummary[], generation: number) => {
    const id = scopeId(scope);
    for (const o of objects)
      upsertObject.run(
        id,
        o.key,
        parentOf(o.key),
        o.size,
        o.hash,
        o.mimeType,
        o.putTime,
        STORAGE_CLASSES.indexOf(o.storageClass),
        generation,
      );
  };

  const addPage = db.transaction(
    (
      scope: IndexScope,
      scan: ScanRecord,
      objects: readonly ObjectSummary[],
      progress: Pick<ScanRecord, 'marker' | 'estimate' | 'firstKey'>,
    ) => {
      putRows(scope, objects, scan.generation);
      const bytes = objects.reduce((sum, o) => sum + o.size, 0);
      return save(scope, { ...scan, ...progress, listed: scan.listed + objects.length, bytes: scan.bytes + bytes });
    },
  );

  const completeScan = db.transaction((scope: IndexScope, scan: ScanRecord, now: number) => {
    const end = prefixEnd(scan.prefix);
    if (end === undefined) dropStaleAll.run(scopeId(scope), scan.generation);
    else dropStaleRange.run(scopeId(scope), scan.prefix, end, scan.generation);
    return save(scope, { ...scan, state: 'complete', estimate: scan.listed, marker: null, completedAt: now, error: null });
  });

  // One set of statements per (root or not, sort, direction), prepared on first use.
  const levelQueries = new Map<string, ReturnType<typeof prepareLevel>>();
  const levelQuery = (root: boolean, sort: SortField, descending: boolean) => {
    const id = `${root}:${sort}:${descending}`;
    let query = levelQueries.get(id);
    if (!query) levelQueries.set(id, (query = prepareLevel(db, root, sort, descending)));
    return query;
  };

  return {
    scan: (scope, prefix) => {
      const row = selectScan.get(scopeId(scope), prefix);
      return row ? recordOf(row) : undefined;
    },
    beginScan: (scope, prefix) =>
      save(scope, {
        prefix,
        state: 'running',
        listed: 0,
        estimate: 0,
        bytes: 0,
        generation: (maxGeneration.get()?.g ?? 0) + 1,
        marker: null,
        firstKey: null,
        completedAt: selectScan.get(scopeId(scope), prefix)?.completed_at ?? null,
        error: null,
      }),
    addPage: (scope, scan, objects, progress) => addPage(scope, scan, objects, progress),
    completeScan: (scope, scan, now) => completeScan(scope, scan, now),
    failScan: (scope, scan, error) => save(scope, { ...scan, state: 'failed', error }),
    status(scope, prefix) {
      const base = { accountId: scope.accountId, bucket: scope.bucket, prefix };
      const own = selectScan.get(scopeId(scope), prefix);
      if (own && own.state !== 'complete') return unfinishedStatus(scope, own);
      // A complete listing of this folder or of any folder above it holds this one whole.
      const covering = selectScans
        .all(scopeId(scope))
        .filter((row) => row.state === 'complete' && prefix.startsWith(row.prefix))
        .sort((a, b) => (b.completed_at ?? 0) - (a.completed_at ?? 0))[0];
      if (!covering) return { ...base, state: 'none', listed: 0, estimate: 0, bytes: 0 };
      const { files, bytes } = totals(scope, prefix);
      return { ...base, state: 'complete', listed: files, estimate: files, bytes, completedAt: covering.completed_at ?? 0 };
    },
    level(scope, prefix, sort, descending, offset, limit, search = '') {
      const from = prefix + search;
      const end = prefixEnd(from);
      const query = levelQuery(end === undefined, sort, descending);
      const params = { scope: scopeId(scope), prefix, n: prefix.length, ...(end === undefined ? {} : { from, end }) };
      const folders = query.folders.all(params);
      const fileCount = query.fileCount.get(params)?.n ?? 0;
      const entries: FolderEntry[] = folders
        .slice(offset, offset + limit)
        .map((f) => ({ kind: 'folder', key: f.folder, files: f.files, bytes: f.bytes, putTime: f.put_time }));
      const fileOffset = Math.max(0, offset - folders.length);
      const fileLimit = limit - entries.length;
      if (fileLimit > 0) {
        for (const row of query.files.all({ ...params, limit: fileLimit, offset: fileOffset })) {
          entries.push({ kind: 'file', ...summaryOf(row) });
        }
      }
      return { entries, total: folders.length + fileCount, offset };
    },
    removeKeys: db.transaction((scope: IndexScope, keys: readonly string[]) => {
      for (const key of keys) deleteObject.run(scopeId(scope), key);
    }),
    object: (scope, key) => {
      const row = selectObject.get(scopeId(scope), key);
      return row ? summaryOf(row) : undefined;
    },
    putObjects: db.transaction((scope: IndexScope, objects: readonly ObjectSummary[]) => {
      putRows(scope, objects, maxGeneration.get()?.g ?? 0);
    }),
    close: () => db.close(),
  };
}
