import { describe, expect, it } from 'vitest';
import type { ListPage } from '@shared/contract/storage';
import { countUnder } from './prefix-listing';

/** A bucket listed `pageSize` keys a page, as Kodo pages with a marker. */
function bucketOf(keys: string[], pageSize: number) {
  const asked: Array<string | undefined> = [];
  const listObjects = async (_bucket: string, options: { prefix: string; marker?: string }): Promise<ListPage> => {
    asked.push(options.marker);
    const under = keys.filter((k) => k.startsWith(options.prefix)).sort();
    const from = options.marker ? Number(options.marker) : 0;
    const objects = under
      .slice(from, from + pageSize)
      .map((key) => ({ key, size: 10, hash: 'h', mimeType: 'text/plain', putTime: 0, storageClass: 'standard' as const }));
    return { folders: [], objects, ...(from + pageSize < under.length ? { marker: String(from + pageSize) } : {}) };
  };
  return { listObjects, asked };
}

describe('counting the objects under a prefix', () => {
  it.each([
    ['every page of a big folder, sub-folders included', 'photos/', 2503, 2503],
    ['the bucket root', '', 2503, 2505],
    ['a folder with its own marker left out', 'raw/', 0, 1],
  ])('%s', async (_case, prefix, photos, expected) => {
    const keys = [...Array.from({ length: photos }, (_, i) => `photos/${i % 2 ? 'sub/' : ''}${i}.jpg`), 'raw/', 'raw/one.txt'];
    const bucket = bucketOf(keys, 1000);
    expect(await countUnder(bucket, 'b', prefix)).toEqual({ objects: expected, bytes: expected * 10 });
    // Page by page with the marker, never one request for everything.
    expect(bucket.asked.length).toBe(Math.max(1, Math.ceil(expected / 1000)));
  });
});
