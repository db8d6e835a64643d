import { describe, expect, it, vi } from 'vitest';
import type { ObjectSummary } from '@shared/contract/storage';
import type { IndexScope, IndexStore } from '../folder-index/index-store';
import { createIndexBatcher } from './index-batcher';

const object = (key: string): ObjectSummary => ({ key, size: 1, hash: 'h', mimeType: 'text/plain', putTime: 1, storageClass: 'standard' });

describe('the index batcher', () => {
  it('puts each bucket’s finished uploads in one call after the delay, and hands a refused batch to onError instead of throwing on its timer', () => {
    vi.useFakeTimers();
    try {
      const put: Array<[string, string[]]> = [];
      const index = {
        putObjects(scope: IndexScope, objects: readonly ObjectSummary[]) {
          if (scope.bucket === 'broken') throw new Error('the folder index (index.sqlite) could not be opened: disk I/O error');
          put.push([scope.bucket, objects.map((o) => o.key)]);
        },
      } as Pick<IndexStore, 'putObjects'> as IndexStore;
      const errors: string[] = [];
      const batcher = createIndexBatcher(index, (error) => errors.push(error.message), 200);
      batcher.add({ accountId: 'a', bucket: 'broken' }, object('x'));
      batcher.add({ accountId: 'a', bucket: 'photos' }, object('1.jpg'));
      batcher.add({ accountId: 'a', bucket: 'photos' }, object('2.jpg'));
      expect(put).toEqual([]);
      vi.advanceTimersByTime(200);
      expect(put).toEqual([['photos', ['1.jpg', '2.jpg']]]);
      expect(errors).toEqual(['the folder index (index.sqlite) could not be opened: disk I/O error']);
      // Nothing is kept to fail again at the next flush.
      batcher.flush();
      expect(errors).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
