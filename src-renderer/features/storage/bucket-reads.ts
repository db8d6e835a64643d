import { serviceFilter } from '../../api/service-query';

/**
 * What is read from inside a bucket (its folders, index, counts, objects, previews and
 * settings): read again together after anything changes in it. Without a bucket, the same reads
 * of every bucket of the account (a batch can move objects into another bucket). The bucket
 * list itself is not among them.
 */
export function bucketReads(accountId: string, bucket?: string) {
  return serviceFilter(
    'storage',
    ['listObjects', 'indexStatus', 'listSorted', 'countObjects', 'statObject', 'previewLink', 'bucketSettings'],
    bucket === undefined ? { accountId } : { accountId, bucket },
  );
}
