import type { ObjectSummary } from '@shared/contract/storage';
import type { IndexScope, IndexStore } from '../folder-index/index-store';

/**
 * Finished uploads go into the folder index a batch at a time: one transaction for the files a
 * dropped folder finishes in a fifth of a second, not one per file. A batch the index refuses
 * (its file cannot be opened) goes to `onError`: it runs on a timer, with no caller to throw to.
 */
export function createIndexBatcher(
  index: IndexStore,
  onError: (error: Error) => void,
  delayMs = 200,
): { add(scope: IndexScope, object: ObjectSummary): void; flush(): void } {
  const pending = new Map<string, { scope: IndexScope; objects: ObjectSummary[] }>();
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const batches = [...pending.values()];
    pending.clear();
    for (const { scope, objects } of batches) {
      try {
        index.putObjects(scope, objects);
      } catch (error) {
        onError(error instanceof Error ? error : new Error(String(error)));
      }
    }
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
