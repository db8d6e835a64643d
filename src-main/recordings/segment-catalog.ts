import { ContractFailure } from '@shared/contract/result';
import type { KodoClient } from '../storage/client/kodo-client';
import { segmentMetaOf, type SegmentMeta } from './segment-meta';
import { dayFolders, segmentStart } from './segment-keys';

/** A recorded segment as the API lists it. */
export interface RecordedSegment extends SegmentMeta {
  key: string;
  /** The object's size in the bucket. */
  bytes: number;
}

/** Where a stream's segments are. */
export interface SegmentPlace {
  client: KodoClient;
  /** Keys the cache for the account and bucket (a name or id, the same each time). */
  account: string;
  bucket: string;
  prefix: string;
}

export interface SegmentCatalog {
  /**
   * The segments overlapping [startMs, endMs) (all of them without a range), oldest first,
   * listed from the bucket: a segment is there only once its upload is complete, and gone
   * once a lifecycle rule removed it.
   */
  list(place: SegmentPlace, range?: { startMs: number; endMs: number }): Promise<RecordedSegment[]>;
  /** What an upload of this process stored, so its listing needs no stat. */
  remember(place: Pick<SegmentPlace, 'account' | 'bucket'>, key: string, meta: SegmentMeta): void;
}

/** Metadata kept in memory, the oldest forgotten first: a month of 10 s segments of a few cameras. */
const CACHE_LIMIT = 200_000;
/** A range longer than this is listed as the whole prefix rather than day by day. */
const DAY_LISTING_LIMIT = 62;

/** Kodo 631, as the storage client says it. */
const isMissingBucket = (error: unknown) =>
  error instanceof ContractFailure && error.code === 'not_found' && error.message.includes('no such bucket');

export function createSegmentCatalog(): SegmentCatalog {
  const metas = new Map<string, SegmentMeta>();
  const cacheKey = (place: Pick<SegmentPlace, 'account' | 'bucket'>, key: string) => `${place.account}\n${place.bucket}\n${key}`;
  const remember: SegmentCatalog['remember'] = (place, key, meta) => {
    metas.delete(cacheKey(place, key));
    metas.set(cacheKey(place, key), meta);
    if (metas.size > CACHE_LIMIT) metas.delete(metas.keys().next().value!);
  };

  /** Every object under `prefix`, page by page, with the segment start its key names. */
  async function listFolder(
    place: SegmentPlace,
    prefix: string,
    endMs: number,
  ): Promise<Array<{ key: string; size: number; startMs: number }>> {
    const out: Array<{ key: string; size: number; startMs: number }> = [];
    let marker: string | undefined;
    do {
      const page = await place.client.listObjects(place.bucket, { prefix, delimiter: '', limit: 1000, ...(marker ? { marker } : {}) });
      for (const object of page.objects) {
        const startMs = segmentStart(place.prefix, object.key);
        if (startMs !== undefined) out.push({ key: object.key, size: object.size, startMs });
      }
      marker = page.marker;
      // Keys sort by time: a page that reached the end of the range is the last one needed.
      const last = page.objects.at(-1);
      if (last && (segmentStart(place.prefix, last.key) ?? 0) >= endMs) break;
    } while (marker);
    return out;
  }

  return {
    remember,
    async list(place, range) {
      const days = range ? Math.ceil((range.endMs - range.startMs) / 86_400_000) : Infinity;
      const folders = range && days <= DAY_LISTING_LIMIT ? dayFolders(place.prefix, range.startMs, range.endMs) : [place.prefix];
      const endMs = range?.endMs ?? Infinity;
      const listed: Array<{ key: string; size: number; startMs: number }> = [];
      try {
        for (const folder of folders) listed.push(...(await listFolder(place, folder, endMs)));
      } catch (error) {
        // The recorder makes its bucket before the first upload: until then nothing is recorded.
        if (isMissingBucket(error)) return [];
        throw error;
      }
      const candidates = listed.filter((o) => o.startMs < endMs);
      const unknown = candidates.filter((o) => !metas.has(cacheKey(place, o.key))).map((o) => o.key);
      if (unknown.length > 0) {
        for (const [key, stat] of await place.client.statMany(place.bucket, unknown)) {
          const meta = segmentMetaOf(stat.metadata);
          if (meta) remember(place, key, meta);
        }
      }
      const segments: RecordedSegment[] = [];
      for (const object of candidates) {
        const meta = metas.get(cacheKey(place, object.key));
        // Another program's object that only looks like a segment has no segment metadata.
        if (!meta) continue;
        if (range && (meta.endMs <= range.startMs || meta.startMs >= range.endMs)) continue;
        segments.push({ key: object.key, bytes: object.size, ...meta });
      }
      return segments.sort((a, b) => a.startMs - b.startMs || (a.key < b.key ? -1 : 1));
    },
  };
}
