import type { Logger } from '../../platform/logger';
import type { ObjectEvent, ObjectEventName } from './event-notifications';
import type { BlobStore, StagedFile } from './blob-store';
import { KodoError } from './kodo-error';
import type { BucketRow, MetadataStore, ObjectRow } from './metadata-store';

const DAY_MS = 86_400_000;

export interface CommitRequest {
  bucket: string;
  key: string;
  staged: StagedFile;
  mime: string;
  overwrite: boolean;
  endUser?: string | undefined;
  meta?: Record<string, string> | undefined;
  fileType?: number | undefined;
  deleteAfterDays?: number | undefined;
  /** The event it notifies: put (default), mkfile for a resumable upload's completion. */
  event?: 'put' | 'mkfile' | undefined;
}

/**
 * Object operations over the metadata DB and the blob folder. Every write follows one order:
 * bytes are fsynced and renamed into place first, then one DB transaction makes them visible,
 * then a blob no row names any more is unlinked. A crash at any point leaves either the old or
 * the new object (and at worst an orphan blob, swept at the next start).
 *
 * Copies and moves share their source's blob: a copy is one row more, never a file operation, so
 * no file-system limit (hard links per file) caps how often an object can be copied, and deleting
 * one copy leaves the others' bytes alone because a blob goes only with the last row naming it.
 */
export class ObjectService {
  constructor(
    private readonly db: MetadataStore,
    private readonly blobs: BlobStore,
    private readonly clock: () => number,
    private readonly logger: Logger,
    /** Told of each change after it is stored (bucket event notifications). */
    private readonly onEvent: (event: ObjectEvent) => void = () => undefined,
  ) {}

  /** Tells the listener of a change; the bucket's owner made it unless another account is named. */
  announce(event: ObjectEventName, row: ObjectRow, extra: { dest?: { bucket: string; key: string }; accessKey?: string } = {}): void {
    const accessKey = extra.accessKey ?? this.db.bucket(row.bucket)?.owner ?? '';
    try {
      this.onEvent({ event, row, accessKey, ...(extra.dest ? { dest: extra.dest } : {}) });
    } catch (error) {
      this.logger.warn('object event listener failed', { error });
    }
  }

  bucket(name: string): BucketRow {
    const row = this.db.bucket(name);
    if (!row) throw new KodoError(631, 'no such bucket');
    return row;
  }

  /** The bucket, checked to belong to `owner` (another account's bucket looks absent). */
  ownedBucket(name: string, owner: string): BucketRow {
    const row = this.bucket(name);
    if (row.owner !== owner) throw new KodoError(631, 'no such bucket');
    return row;
  }

  stat(bucket: string, key: string): ObjectRow {
    const row = this.db.object(bucket, key);
    if (!row || this.isExpired(row)) throw new KodoError(612, 'no such file or directory');
    return row;
  }

  find(bucket: string, key: string): ObjectRow | undefined {
    const row = this.db.object(bucket, key);
    return row && !this.isExpired(row) ? row : undefined;
  }

  private isExpired(row: ObjectRow): boolean {
    return row.expire_at !== null && row.expire_at <= this.clock();
  }

  /** The emulator's clock (epoch ms). */
  now(): number {
    return this.clock();
  }

  /** The bucket's lifecycle rules (`/rules/add`), for what stat reports. */
  lifecycleRules(bucket: string): Record<string, unknown>[] {
    return this.db.settings<Record<string, unknown>>(bucket, 'rules');
  }

  expiry(days: number | undefined): number | null {
    return days && days > 0 ? this.clock() + days * DAY_MS : null;
  }

  /** Makes a staged upload the object `bucket/key`; 614 when it exists and overwrite is not allowed. */
  async commit(request: CommitRequest): Promise<ObjectRow> {
    assertServableMime(request.mime);
    const blob = await this.blobs.adopt(request.staged);
    const row: ObjectRow = {
      bucket: request.bucket,
      key: request.key,
      hash: request.staged.etag,
      fsize: request.staged.size,
      mime: request.mime,
      put_time: this.clock() * 10_000,
      type: request.fileType ?? 0,
      status: 0,
      end_user: request.endUser ?? null,
      meta: request.meta && Object.keys(request.meta).length > 0 ? JSON.stringify(request.meta) : null,
      md5: request.staged.md5,
      expire_at: this.expiry(request.deleteAfterDays),
      blob,
      lifecycle: null,
    };
    let released: string[] = [];
    let keptExisting: ObjectRow | undefined;
    try {
      this.db.transaction(() => {
        const existing = this.db.object(request.bucket, request.key);
        const live = existing && !this.isExpired(existing) ? existing : undefined;
        if (live && !request.overwrite) {
          // Kodo accepts an insert-only upload of identical content as a success.
          if (live.hash === row.hash) {
            keptExisting = live;
            return;
          }
          throw new KodoError(614, 'file exists');
        }
        this.checkQuota(request.bucket, 1 - (existing ? 1 : 0), row.fsize - (existing?.fsize ?? 0));
        this.db.putObject(row);
        released = this.unreferenced(existing?.blob);
      });
    } catch (error) {
      await this.blobs.remove(blob);
      throw error;
    }
    if (keptExisting) {
      await this.blobs.remove(blob);
      return keptExisting;
    }
    await this.unlink(released);
    this.announce(request.event ?? 'put', row);
    return row;
  }

  /** putBucketQuota: size (bytes) and count limits; 0 or less means no limit. */
  private checkQuota(bucket: string, addCount: number, addSize: number): void {
    const quota = this.db.setting<{ size: number; count: number }>(bucket, 'quota', 'default');
    if (!quota || (quota.size <= 0 && quota.count <= 0)) return;
    const usage = this.db.usage(bucket);
    if (quota.count > 0 && addCount > 0 && usage.count + addCount > quota.count)
      throw new KodoError(403, 'bucket quota exceeded: object count');
    if (quota.size > 0 && addSize > 0 && usage.size + addSize > quota.size) throw new KodoError(403, 'bucket quota exceeded: size');
  }

  async delete(bucket: string, key: string): Promise<void> {
    const row = this.stat(bucket, key);
    const released = this.db.transaction(() => {
      this.db.deleteObject(bucket, key);
      return this.unreferenced(row.blob);
    });
    await this.unlink(released);
    this.announce('delete', row);
  }

  /** copy/move: 614 when the destination exists and force is not set. */
  async transfer(
    kind: 'copy' | 'move',
    src: { bucket: string; key: string },
    dst: { bucket: string; key: string },
    force: boolean,
  ): Promise<void> {
    const source = this.stat(src.bucket, src.key);
    if (src.bucket === dst.bucket && src.key === dst.key) {
      if (kind === 'move') return;
      throw new KodoError(614, 'file exists');
    }
    // Nothing is awaited between the stat and the transaction, which checks again that the source
    // still names the same blob: the blob cannot be released in between.
    const released = this.db.transaction(() => {
      const current = this.db.object(src.bucket, src.key);
      if (!current || current.blob !== source.blob) throw new KodoError(612, 'no such file or directory');
      const existing = this.db.object(dst.bucket, dst.key);
      if (existing && !this.isExpired(existing) && !force) throw new KodoError(614, 'file exists');
      if (src.bucket !== dst.bucket || kind === 'copy')
        this.checkQuota(dst.bucket, existing ? 0 : 1, source.fsize - (existing?.fsize ?? 0));
      // A copy is a new object: its lifecycle starts over; a moved one keeps its own. Either way
      // the destination names the source's blob.
      this.db.putObject({
        ...source,
        bucket: dst.bucket,
        key: dst.key,
        put_time: kind === 'copy' ? this.clock() * 10_000 : source.put_time,
        lifecycle: kind === 'copy' ? null : source.lifecycle,
      });
      if (kind === 'move') this.db.deleteObject(src.bucket, src.key);
      return this.unreferenced(existing?.blob);
    });
    await this.unlink(released);
    this.announce(kind, source, { dest: dst });
  }

  update(bucket: string, key: string, change: (row: ObjectRow) => Partial<ObjectRow>): void {
    this.db.transaction(() => {
      const row = this.stat(bucket, key);
      this.db.putObject({ ...row, ...change(row) });
    });
  }

  /** Removes a row (unless it was replaced since it was read) and its blob if no other row names it (sweepers). */
  async purge(row: ObjectRow): Promise<void> {
    const released = this.db.transaction(() => {
      const current = this.db.object(row.bucket, row.key);
      if (!current || current.blob !== row.blob || current.put_time !== row.put_time) return [];
      this.db.deleteObject(row.bucket, row.key);
      return this.unreferenced(row.blob);
    });
    await this.unlink(released);
  }

  /** Of these blobs, those no row names any more; called inside the transaction that dropped the rows. */
  private unreferenced(...blobs: (string | undefined)[]): string[] {
    return blobs.filter((blob): blob is string => blob !== undefined && this.db.blobReferences(blob) === 0);
  }

  /**
   * Unlinks released blobs once their rows are gone. The change is already committed, so a
   * failure here is not the client's: the blob stays an orphan until the next start sweeps it.
   */
  private async unlink(blobs: string[]): Promise<void> {
    for (const blob of blobs) {
      await this.blobs
        .remove(blob)
        .catch((error: unknown) => this.logger.warn('could not remove a released blob; it goes at the next start', { blob, error }));
    }
  }

  /** Deletes objects whose deleteAfterDays has passed; returns how many went. */
  async sweepExpired(): Promise<number> {
    let removed = 0;
    for (;;) {
      const batch = this.db.expiredObjects(this.clock());
      if (batch.length === 0) return removed;
      for (const row of batch) {
        await this.purge(row);
        removed += 1;
      }
      this.logger.debug('expired objects removed', { count: batch.length });
    }
  }
}

/**
 * A MIME type goes back out as the Content-Type of every download, and an HTTP header holds only
 * visible ASCII: anything else is refused when it is given, not stored to fail every download.
 */
export function assertServableMime(mime: string): void {
  if (!/^[\x20-\x7e]*$/.test(mime))
    throw new KodoError(400, `invalid mimeType: only printable ASCII may stand in a Content-Type (got ${JSON.stringify(mime)})`);
}
