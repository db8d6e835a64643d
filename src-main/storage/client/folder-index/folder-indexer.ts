import type { IndexStatus, ListPage } from '@shared/contract/storage';
import type { Logger } from '@main/platform/logger';
import { estimateTotal } from './estimate-total';
import type { IndexScope, IndexStore, ScanRecord } from './index-store';

export interface FolderIndexerOptions {
  store: IndexStore;
  /** One page of every key under a prefix (no delimiter), from the account's service. */
  listPage(scope: IndexScope, prefix: string, marker: string | undefined): Promise<ListPage>;
  /** Progress of a listing, pushed to the console after each page. */
  onStatus(status: IndexStatus): void;
  logger: Logger;
  now?: () => number;
}

export interface FolderIndexer {
  /** Lists a folder's subtree into the index in the background; an interrupted listing goes on from where it stopped. */
  start(scope: IndexScope, prefix: string): IndexStatus;
  status(scope: IndexScope, prefix: string): IndexStatus;
  /** Waits for the running listings to stop (at shutdown). */
  close(): Promise<void>;
}

const INTERRUPTED = 'the listing was interrupted when the app closed; refresh to go on from where it stopped';

/** Background listings of folders into the local SQLite index, one per folder at a time. */
export function createFolderIndexer({ store, listPage, onStatus, logger, now = Date.now }: FolderIndexerOptions): FolderIndexer {
  const running = new Map<string, Promise<void>>();
  let closing = false;
  const idOf = (scope: IndexScope, prefix: string) => `${scope.accountId}/${scope.bucket}/${prefix}`;

  const status = (scope: IndexScope, prefix: string): IndexStatus => {
    const known = store.status(scope, prefix);
    // A listing the store says is running but nothing here runs was cut by the last exit.
    if (known.state === 'running' && !running.has(idOf(scope, prefix))) return { ...known, state: 'failed', error: INTERRUPTED };
    return known;
  };

  const run = async (scope: IndexScope, prefix: string, from: ScanRecord): Promise<void> => {
    let scan = from;
    try {
      for (;;) {
        if (closing) return;
        const page = await listPage(scope, prefix, scan.marker ?? undefined);
        const firstKey = scan.firstKey ?? page.objects[0]?.key ?? null;
        const lastKey = page.objects.at(-1)?.key ?? firstKey ?? '';
        const listed = scan.listed + page.objects.length;
        const estimate = estimateTotal({
          listed,
          firstKey: (firstKey ?? '').slice(prefix.length),
          lastKey: lastKey.slice(prefix.length),
          more: Boolean(page.marker),
        });
        scan = store.addPage(scope, scan, page.objects, { marker: page.marker ?? null, estimate, firstKey });
        if (!page.marker) break;
        onStatus(store.status(scope, prefix));
      }
      store.completeScan(scope, scan, now());
      logger.debug('folder indexed', { bucket: scope.bucket, prefix, keys: scan.listed });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      store.failScan(scope, scan, message);
      logger.warn('folder listing failed', { bucket: scope.bucket, prefix, error: message });
    }
    onStatus(status(scope, prefix));
  };

  return {
    start(scope, prefix) {
      const id = idOf(scope, prefix);
      if (running.has(id)) return status(scope, prefix);
      const previous = store.scan(scope, prefix);
      // Go on from the stored position when the last listing did not finish; else list afresh.
      const resumable = previous && previous.state !== 'complete' && previous.marker !== null;
      const scan = resumable
        ? store.addPage(scope, { ...previous, state: 'running', error: null }, [], previous)
        : store.beginScan(scope, prefix);
      const job = run(scope, prefix, scan).finally(() => running.delete(id));
      running.set(id, job);
      const started = status(scope, prefix);
      onStatus(started);
      return started;
    },
    status,
    async close() {
      closing = true;
      await Promise.allSettled([...running.values()]);
    },
  };
}
