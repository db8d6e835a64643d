import { hashKey, QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { serviceKey } from '../../api/service-query';
import { bucketReads } from './bucket-reads';

const media = { accountId: 'local', bucket: 'media' };

/** One cached read of each kind: the bucket's own, another bucket's, another account's, and the lists above buckets. */
const reads = {
  listing: serviceKey('storage', 'listObjects', { ...media, prefix: '', limit: 1000 }),
  index: serviceKey('storage', 'indexStatus', { ...media, prefix: 'cams/' }),
  sorted: serviceKey('storage', 'listSorted', {
    ...media,
    prefix: '',
    search: '',
    sort: 'size',
    descending: true,
    offset: 200,
    limit: 200,
  }),
  count: serviceKey('storage', 'countObjects', { ...media, prefix: '' }),
  stat: serviceKey('storage', 'statObject', { ...media, key: 'a.mp4' }),
  preview: serviceKey('storage', 'previewLink', { ...media, key: 'a.mp4', view: 'poster' }),
  settings: serviceKey('storage', 'bucketSettings', media),
  otherBucket: serviceKey('storage', 'statObject', { accountId: 'local', bucket: 'logs', key: 'a.log' }),
  otherAccount: serviceKey('storage', 'statObject', { accountId: 'kodo', bucket: 'media', key: 'a.mp4' }),
  buckets: serviceKey('storage', 'listBuckets', { accountId: 'local' }),
  accounts: serviceKey('storage', 'listAccounts'),
  cdn: serviceKey('cdn', 'domains', { accountId: 'local' }),
};

function hit(filter: ReturnType<typeof bucketReads>): string[] {
  const queryClient = new QueryClient();
  // What each holds does not matter here, only which of them the filter finds.
  for (const key of Object.values(reads)) queryClient.setQueryData<unknown>(key as readonly unknown[], 'cached');
  const hashes = new Set(
    queryClient
      .getQueryCache()
      .findAll(filter)
      .map((query) => query.queryHash),
  );
  return Object.entries(reads)
    .filter(([, key]) => hashes.has(hashKey(key)))
    .map(([name]) => name);
}

describe('the reads of a bucket', () => {
  it('are every read inside that bucket, and nothing of other buckets, accounts or the lists above', () => {
    expect(hit(bucketReads('local', 'media'))).toEqual(['listing', 'index', 'sorted', 'count', 'stat', 'preview', 'settings']);
  });

  it('of a whole account are the reads inside each of its buckets, not its bucket list', () => {
    expect(hit(bucketReads('local'))).toEqual(['listing', 'index', 'sorted', 'count', 'stat', 'preview', 'settings', 'otherBucket']);
  });
});
