import type { ObjectSummary } from '@shared/contract/storage';
import type { IndexScope, IndexStore } from '../folder-index/index-store';

/**
 * Finished uploads go into the folder index a batch at a time: one transaction for the files a
 * dropped folder finishes in a fifth of a second, not one per file.
 */
export function createIndexBatcher(
  index: IndexStore,
  delayMs = 200,
): { add(scope: IndexScope, object: ObjectSummary): void; flush(): void } {
  const pending = new Map<string, { scope: IndexScope; objects: ObjectSummary[] }>();
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    for (const { scope, objects } of pending.values()) index.putObjects(scope, objects);
    pending.clear();
  };
  return {
    add(scope, object) {
      const name = JSON.stringify([scope.accountId, scope.bucket]);
      let batch = pending.get(name);
      if (!batch) pending.set(name, (batch = { scope, objects: [] }));
      batch.objects.push(object);
      timer ??= setTimeout(flush, delayMs);
    },
    flush,
  };
}
