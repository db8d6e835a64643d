import type Database from 'better-sqlite3';
import { openSqlite } from '../../platform/sqlite';

export interface ObjectRow {
  bucket: string;
  key: string;
  hash: string;
  fsize: number;
  mime: string;
  /** 100 ns units since the epoch, as Kodo reports putTime. */
  put_time: number;
  type: number;
  status: number;
  end_user: string | null;
  meta: string | null;
  md5: string;
  /** Epoch ms when the sweeper deletes it, or null for permanent. */
  expire_at: number | null;
  blob: string;
  /** The object's own lifecycle settings (object-lifecycle.ts), JSON, or null. */
  lifecycle: string | null;
}

export interface BucketRow {
  name: string;
  owner: string;
  private: number;
  domains: string;
  mirror: string | null;
  anti_leech_key: string | null;
  created: number;
  /** The Kodo region the bucket lives in. */
  region: string;
}

/** One URL or directory of a CDN refresh or prefetch request. */
export interface CdnTaskRow {
  task_id: string;
  owner: string;
  kind: 'refresh' | 'prefetch';
  request_id: string;
  url: string;
  is_dir: number;
  created: number;
}

export interface UploadRow {
  id: string;
  bucket: string;
  key: string;
  owner: string;
  expire_at: number;
  /** Parts 1..assembled were appended in order to the assembly file, which holds asm_size bytes. */
  assembled: number;
  asm_size: number;
}

export interface PartRow {
  upload_id: string;
  part_number: number;
  etag: string;
  md5: string;
  size: number;
  /** Its own file in parts/, or '' when the bytes sit in the upload's assembly file at `offset`. */
  file: string;
  offset: number | null;
  /** sha1 of each 4 MiB block from the part's start, 20 bytes each; null until hashed. */
  blocks: Buffer | null;
}

/**
 * A v1 block being uploaded, under the ctx that takes its next chunk (each chunk answers a new
 * ctx; the one before it is dropped in the same transaction).
 */
export interface BlockRow {
  ctx: string;
  owner: string;
  /** The block's size, given to mkblk. */
  size: number;
  /** crc32 of the last chunk received. */
  crc32: number;
  expire_at: number;
  file: string;
  /** Bytes of the block received so far (the next chunk's offset); null in rows from before bput: whole blocks. */
  received: number | null;
}

export interface DownloadLogRow {
  at: number;
  domain: string;
  path: string;
  status: number;
  bytes: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS buckets (
  name TEXT PRIMARY KEY, owner TEXT NOT NULL, private INTEGER NOT NULL, domains TEXT NOT NULL,
  mirror TEXT, anti_leech_key TEXT, created INTEGER NOT NULL, region TEXT NOT NULL DEFAULT 'z0');
CREATE TABLE IF NOT EXISTS objects (
  bucket TEXT NOT NULL, key TEXT NOT NULL, hash TEXT NOT NULL, fsize INTEGER NOT NULL,
  mime TEXT NOT NULL, put_time INTEGER NOT NULL, type INTEGER NOT NULL, status INTEGER NOT NULL DEFAULT 0,
  end_user TEXT, meta TEXT, md5 TEXT NOT NULL, expire_at INTEGER, blob TEXT NOT NULL, lifecycle TEXT,
  PRIMARY KEY (bucket, key)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS objects_expire ON objects(expire_at) WHERE expire_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS objects_blob ON objects(blob);
CREATE TABLE IF NOT EXISTS uploads (
  id TEXT PRIMARY KEY, bucket TEXT NOT NULL, key TEXT NOT NULL, owner TEXT NOT NULL, expire_at INTEGER NOT NULL,
  assembled INTEGER NOT NULL DEFAULT 0, asm_size INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS parts (
  upload_id TEXT NOT NULL, part_number INTEGER NOT NULL, etag TEXT NOT NULL, md5 TEXT NOT NULL,
  size INTEGER NOT NULL, file TEXT NOT NULL, offset INTEGER, blocks BLOB, PRIMARY KEY (upload_id, part_number));
CREATE TABLE IF NOT EXISTS blocks (
  ctx TEXT PRIMARY KEY, owner TEXT NOT NULL, size INTEGER NOT NULL, crc32 INTEGER NOT NULL,
  expire_at INTEGER NOT NULL, file TEXT NOT NULL, received INTEGER);
CREATE TABLE IF NOT EXISTS tasks (id TEXT PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS download_log (
  at INTEGER NOT NULL, domain TEXT NOT NULL, path TEXT NOT NULL, status INTEGER NOT NULL, bytes INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS download_log_at ON download_log(domain, at);
CREATE TABLE IF NOT EXISTS bucket_settings (
  bucket TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (bucket, kind, name));
CREATE TABLE IF NOT EXISTS cdn_tasks (
  task_id TEXT PRIMARY KEY, owner TEXT NOT NULL, kind TEXT NOT NULL, request_id TEXT NOT NULL, url TEXT NOT NULL,
  is_dir INTEGER NOT NULL, created INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS cdn_tasks_owner ON cdn_tasks(owner, kind, created);
CREATE TABLE IF NOT EXISTS cdn_quota (
  owner TEXT NOT NULL, day TEXT NOT NULL, urls INTEGER NOT NULL, dirs INTEGER NOT NULL, PRIMARY KEY (owner, day));
`;

/** What a listing shows of an object (the blob name, metadata and rules stay out of a page read). */
export type ListedRow = Pick<
  ObjectRow,
  'key' | 'hash' | 'fsize' | 'mime' | 'put_time' | 'type' | 'status' | 'end_user' | 'md5' | 'expire_at'
>;

type ListedTuple = [string, string, number, string, number, number, number, string | null, string, number | null];

export interface ListQuery {
  bucket: string;
  prefix: string;
  after: string;
  limit: number;
}

/** Every metadata read and write of the emulator; one SQLite file in WAL mode. */
export class MetadataStore {
  private readonly db: Database.Database;
  private readonly stmts;

  constructor(path: string) {
    this.db = openSqlite(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(SCHEMA);
    // Files made by earlier versions get the columns added since: objects' lifecycle settings,
    // buckets' region (those made before regions live in z0, where they always answered), and
    // parts' block hashes (empty: such a part is hashed at completion).
    this.addColumnIfMissing('objects', 'lifecycle', 'TEXT');
    this.addColumnIfMissing('buckets', 'region', "TEXT NOT NULL DEFAULT 'z0'");
    this.addColumnIfMissing('parts', 'blocks', 'BLOB');
    this.addColumnIfMissing('blocks', 'received', 'INTEGER');
    const db = this.db;
    this.stmts = {
      bucket: db.prepare<[string], BucketRow>('SELECT * FROM buckets WHERE name = ?'),
      buckets: db.prepare<[string], BucketRow>('SELECT * FROM buckets WHERE owner = ? ORDER BY name'),
      allBuckets: db.prepare<[], BucketRow>('SELECT * FROM buckets'),
      upsertBucket: db.prepare(
        `INSERT INTO buckets (name, owner, private, domains, mirror, anti_leech_key, created, region)
         VALUES (@name, @owner, @private, @domains, @mirror, @anti_leech_key, @created, @region)
         ON CONFLICT(name) DO UPDATE SET owner = excluded.owner, private = excluded.private,
           domains = excluded.domains, mirror = excluded.mirror, anti_leech_key = excluded.anti_leech_key, region = excluded.region`,
      ),
      dropBucket: db.prepare('DELETE FROM buckets WHERE name = ?'),
      countObjects: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM objects WHERE bucket = ?'),
      usage: db.prepare<[string], { count: number; size: number }>(
        'SELECT count(*) AS count, coalesce(sum(fsize), 0) AS size FROM objects WHERE bucket = ?',
      ),
      object: db.prepare<[string, string], ObjectRow>('SELECT * FROM objects WHERE bucket = ? AND key = ?'),
      putObject: db.prepare(
        `INSERT INTO objects (bucket, key, hash, fsize, mime, put_time, type, status, end_user, meta, md5, expire_at, blob, lifecycle)
         VALUES (@bucket, @key, @hash, @fsize, @mime, @put_time, @type, @status, @end_user, @meta, @md5, @expire_at, @blob, @lifecycle)
         ON CONFLICT(bucket, key) DO UPDATE SET hash = excluded.hash, fsize = excluded.fsize, mime = excluded.mime,
           put_time = excluded.put_time, type = excluded.type, status = excluded.status, end_user = excluded.end_user,
           meta = excluded.meta, md5 = excluded.md5, expire_at = excluded.expire_at, blob = excluded.blob, lifecycle = excluded.lifecycle`,
      ),
      deleteObject: db.prepare('DELETE FROM objects WHERE bucket = ? AND key = ?'),
      // Rows as arrays, made into objects in JavaScript: half the time of better-sqlite3's own
      // objects for a 1000-row page.
      list: db
        .prepare<[ListQuery], ListedTuple>(
          `SELECT key, hash, fsize, mime, put_time, type, status, end_user, md5, expire_at FROM objects WHERE bucket = @bucket AND key > @after AND key >= @prefix
           AND substr(key, 1, length(@prefix)) = @prefix ORDER BY key LIMIT @limit`,
        )
        .raw(true),
      expired: db.prepare<[number], ObjectRow>('SELECT * FROM objects WHERE expire_at IS NOT NULL AND expire_at <= ? LIMIT 500'),
      blobs: db.prepare<[], { blob: string }>('SELECT blob FROM objects'),
      blobRefs: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM objects WHERE blob = ?'),
      upload: db.prepare<[string], UploadRow>('SELECT * FROM uploads WHERE id = ?'),
      putUpload: db.prepare(
        'INSERT INTO uploads (id, bucket, key, owner, expire_at, assembled, asm_size) VALUES (@id, @bucket, @key, @owner, @expire_at, @assembled, @asm_size)',
      ),
      setAssembly: db.prepare('UPDATE uploads SET assembled = ?, asm_size = ? WHERE id = ?'),
      deleteUpload: db.prepare('DELETE FROM uploads WHERE id = ?'),
      expiredUploads: db.prepare<[number], UploadRow>('SELECT * FROM uploads WHERE expire_at <= ?'),
      parts: db.prepare<[string], PartRow>('SELECT * FROM parts WHERE upload_id = ? ORDER BY part_number'),
      putPart: db.prepare(
        `INSERT INTO parts (upload_id, part_number, etag, md5, size, file, offset, blocks)
         VALUES (@upload_id, @part_number, @etag, @md5, @size, @file, @offset, @blocks)
         ON CONFLICT(upload_id, part_number) DO UPDATE SET etag = excluded.etag, md5 = excluded.md5, size = excluded.size,
           file = excluded.file, offset = excluded.offset, blocks = excluded.blocks`,
      ),
      setPartBlocks: db.prepare('UPDATE parts SET blocks = ? WHERE upload_id = ? AND part_number = ? AND etag = ?'),
      part: db.prepare<[string, number], PartRow>('SELECT * FROM parts WHERE upload_id = ? AND part_number = ?'),
      deleteParts: db.prepare('DELETE FROM parts WHERE upload_id = ?'),
      allPartFiles: db.prepare<[], { file: string }>(
        `SELECT file FROM parts WHERE file != '' UNION ALL SELECT file FROM blocks UNION ALL SELECT 'asm-' || id FROM uploads`,
      ),
      block: db.prepare<[string], BlockRow>('SELECT * FROM blocks WHERE ctx = ?'),
      putBlock: db.prepare(
        'INSERT INTO blocks (ctx, owner, size, crc32, expire_at, file, received) VALUES (@ctx, @owner, @size, @crc32, @expire_at, @file, @received)',
      ),
      deleteBlock: db.prepare('DELETE FROM blocks WHERE ctx = ?'),
      expiredBlocks: db.prepare<[number], BlockRow>('SELECT * FROM blocks WHERE expire_at <= ?'),
      task: db.prepare<[string], { body: string }>('SELECT body FROM tasks WHERE id = ?'),
      putTask: db.prepare('INSERT INTO tasks (id, body) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET body = excluded.body'),
      logDownload: db.prepare('INSERT INTO download_log (at, domain, path, status, bytes) VALUES (@at, @domain, @path, @status, @bytes)'),
      downloads: db.prepare<[string, number, number], DownloadLogRow>(
        'SELECT * FROM download_log WHERE domain = ? AND at >= ? AND at < ? ORDER BY at',
      ),
      setting: db.prepare<[string, string, string], { value: string }>(
        'SELECT value FROM bucket_settings WHERE bucket = ? AND kind = ? AND name = ?',
      ),
      settings: db.prepare<[string, string], { name: string; value: string }>(
        'SELECT name, value FROM bucket_settings WHERE bucket = ? AND kind = ? ORDER BY name',
      ),
      putSetting: db.prepare(
        'INSERT INTO bucket_settings (bucket, kind, name, value) VALUES (?, ?, ?, ?) ON CONFLICT(bucket, kind, name) DO UPDATE SET value = excluded.value',
      ),
      deleteSetting: db.prepare('DELETE FROM bucket_settings WHERE bucket = ? AND kind = ? AND name = ?'),
      dropSettings: db.prepare('DELETE FROM bucket_settings WHERE bucket = ?'),
      olderThan: db.prepare<[{ bucket: string; prefix: string; putTime: number }], ObjectRow>(
        `SELECT * FROM objects WHERE bucket = @bucket AND key >= @prefix AND substr(key, 1, length(@prefix)) = @prefix
           AND put_time < @putTime LIMIT 500`,
      ),
      quota: db.prepare<[string, string], { urls: number; dirs: number }>('SELECT urls, dirs FROM cdn_quota WHERE owner = ? AND day = ?'),
      addCdnTask: db.prepare(
        'INSERT INTO cdn_tasks (task_id, owner, kind, request_id, url, is_dir, created) VALUES (@task_id, @owner, @kind, @request_id, @url, @is_dir, @created)',
      ),
      cdnTasks: db.prepare<[string, string], CdnTaskRow>(
        'SELECT * FROM cdn_tasks WHERE owner = ? AND kind = ? ORDER BY created DESC, task_id',
      ),
      addQuota: db.prepare(
        `INSERT INTO cdn_quota (owner, day, urls, dirs) VALUES (?, ?, ?, ?)
         ON CONFLICT(owner, day) DO UPDATE SET urls = urls + excluded.urls, dirs = dirs + excluded.dirs`,
      ),
    };
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  bucket(name: string): BucketRow | undefined {
    return this.stmts.bucket.get(name);
  }
  bucketsOf(owner: string): BucketRow[] {
    return this.stmts.buckets.all(owner);
  }
  allBuckets(): BucketRow[] {
    return this.stmts.allBuckets.all();
  }
  upsertBucket(row: BucketRow): void {
    this.stmts.upsertBucket.run(row);
  }
  dropBucket(name: string): void {
    this.stmts.dropBucket.run(name);
  }
  usage(bucket: string): { count: number; size: number } {
    return this.stmts.usage.get(bucket) ?? { count: 0, size: 0 };
  }
  countObjects(bucket: string): number {
    return this.stmts.countObjects.get(bucket)?.n ?? 0;
  }

  object(bucket: string, key: string): ObjectRow | undefined {
    return this.stmts.object.get(bucket, key);
  }
  putObject(row: ObjectRow): void {
    this.stmts.putObject.run(row);
  }
  deleteObject(bucket: string, key: string): boolean {
    return this.stmts.deleteObject.run(bucket, key).changes > 0;
  }
  /** A page of the keys strictly after `after` that start with `prefix`, in byte order, with only the columns a listing shows. */
  list(query: ListQuery): ListedRow[] {
    const rows = this.stmts.list.all(query);
    return rows.map(([key, hash, fsize, mime, put_time, type, status, end_user, md5, expire_at]) => ({
      key,
      hash,
      fsize,
      mime,
      put_time,
      type,
      status,
      end_user,
      md5,
      expire_at,
    }));
  }
  expiredObjects(now: number): ObjectRow[] {
    return this.stmts.expired.all(now);
  }
  allBlobs(): Set<string> {
    return new Set(this.stmts.blobs.all().map((r) => r.blob));
  }
  /**
   * How many objects share a blob. Copies point at their source's blob instead of hard-linking
   * it (a file takes at most 65,000 links on ext4, 1,024 on NTFS), so this count, kept by the
   * rows themselves through the blob index, is the blob's reference count.
   */
  blobReferences(blob: string): number {
    return this.stmts.blobRefs.get(blob)?.n ?? 0;
  }

  upload(id: string): UploadRow | undefined {
    return this.stmts.upload.get(id);
  }
  putUpload(row: UploadRow): void {
    this.stmts.putUpload.run(row);
  }
  deleteUpload(id: string): void {
    this.transaction(() => {
      this.stmts.deleteParts.run(id);
      this.stmts.deleteUpload.run(id);
    });
  }
  setAssembly(id: string, assembled: number, size: number): void {
    this.stmts.setAssembly.run(assembled, size, id);
  }
  expiredUploads(now: number): UploadRow[] {
    return this.stmts.expiredUploads.all(now);
  }
  parts(uploadId: string): PartRow[] {
    return this.stmts.parts.all(uploadId);
  }
  part(uploadId: string, partNumber: number): PartRow | undefined {
    return this.stmts.part.get(uploadId, partNumber);
  }
  private addColumnIfMissing(table: string, column: string, type: string): void {
    const columns = this.db.prepare<[], { name: string }>(`PRAGMA table_info(${table})`).all();
    if (!columns.some((c) => c.name === column)) this.db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
  }

  /** Records a part's block hashes, unless the part was sent again (another etag) meanwhile. */
  setPartBlocks(uploadId: string, partNumber: number, etag: string, blocks: Buffer): void {
    this.stmts.setPartBlocks.run(blocks, uploadId, partNumber, etag);
  }
  putPart(row: PartRow): void {
    this.stmts.putPart.run(row);
  }
  allPartFiles(): Set<string> {
    return new Set(this.stmts.allPartFiles.all().map((r) => r.file));
  }

  block(ctx: string): BlockRow | undefined {
    return this.stmts.block.get(ctx);
  }
  putBlock(row: BlockRow): void {
    this.stmts.putBlock.run(row);
  }
  deleteBlock(ctx: string): void {
    this.stmts.deleteBlock.run(ctx);
  }
  /** The block under a new ctx after a chunk; false (nothing changed) when `ctx` is gone meanwhile. */
  advanceBlock(ctx: string, next: BlockRow): boolean {
    return this.transaction(() => {
      if (this.stmts.deleteBlock.run(ctx).changes === 0) return false;
      this.stmts.putBlock.run(next);
      return true;
    });
  }
  expiredBlocks(now: number): BlockRow[] {
    return this.stmts.expiredBlocks.all(now);
  }

  task(id: string): unknown {
    const row = this.stmts.task.get(id);
    return row ? JSON.parse(row.body) : undefined;
  }
  putTask(id: string, body: unknown): void {
    this.stmts.putTask.run(id, JSON.stringify(body));
  }

  logDownload(row: DownloadLogRow): void {
    this.stmts.logDownload.run(row);
  }
  downloads(domain: string, from: number, to: number): DownloadLogRow[] {
    return this.stmts.downloads.all(domain, from, to);
  }

  /** Bucket configuration kept by uc (lifecycle rules, events, CORS, referer, quota...). */
  setting<T>(bucket: string, kind: string, name: string): T | undefined {
    const row = this.stmts.setting.get(bucket, kind, name);
    return row ? (JSON.parse(row.value) as T) : undefined;
  }
  settings<T>(bucket: string, kind: string): T[] {
    return this.stmts.settings.all(bucket, kind).map((r) => JSON.parse(r.value) as T);
  }
  putSetting(bucket: string, kind: string, name: string, value: unknown): void {
    this.stmts.putSetting.run(bucket, kind, name, JSON.stringify(value));
  }
  deleteSetting(bucket: string, kind: string, name: string): boolean {
    return this.stmts.deleteSetting.run(bucket, kind, name).changes > 0;
  }
  dropSettings(bucket: string): void {
    this.stmts.dropSettings.run(bucket);
  }
  /** Objects under `prefix` stored before `putTime` (100 ns units), a page at a time. */
  objectsOlderThan(bucket: string, prefix: string, putTime: number): ObjectRow[] {
    return this.stmts.olderThan.all({ bucket, prefix, putTime });
  }

  quota(owner: string, day: string): { urls: number; dirs: number } {
    return this.stmts.quota.get(owner, day) ?? { urls: 0, dirs: 0 };
  }
  addQuota(owner: string, day: string, urls: number, dirs: number): void {
    this.stmts.addQuota.run(owner, day, urls, dirs);
  }

  addCdnTasks(rows: CdnTaskRow[]): void {
    this.db.transaction(() => {
      for (const row of rows) this.stmts.addCdnTask.run(row);
    })();
  }
  /** The account's refresh or prefetch tasks, newest first. */
  cdnTasks(owner: string, kind: 'refresh' | 'prefetch'): CdnTaskRow[] {
    return this.stmts.cdnTasks.all(owner, kind);
  }

  close(): void {
    this.db.close();
  }
}
