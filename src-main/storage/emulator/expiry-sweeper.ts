import type { Logger } from '../../platform/logger';
import type { BlobStore } from './blob-store';
import { applyLifecycleRules } from './bucket-settings';
import type { MetadataStore } from './metadata-store';
import type { ObjectService } from './object-service';
import { sweepUploads } from './upload-routes';

export interface ExpirySweeperDeps {
  db: MetadataStore;
  blobs: BlobStore;
  objects: ObjectService;
  clock: () => number;
  logger: Logger;
  /** How often the sweep runs on its own, ms. */
  intervalMs: number;
}

/**
 * Deletes what has expired: objects past deleteAfterDays or a lifecycle rule, and uploads left
 * unfinished. Runs on a timer, one sweep at a time, and on demand (tests move the clock).
 */
export function startExpirySweeper(deps: ExpirySweeperDeps): { sweep(): Promise<void>; stop(): void } {
  const { db, blobs, objects, clock, logger } = deps;
  const sweep = async (): Promise<void> => {
    const removed = await objects.sweepExpired();
    if (removed > 0) logger.info('deleteAfterDays: objects expired', { count: removed });
    const ruled = await applyLifecycleRules(db, objects, clock());
    if (ruled > 0) logger.info('lifecycle rules: objects deleted', { count: ruled });
    await sweepUploads({ db, blobs }, clock());
  };
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    sweep()
      .catch((error: unknown) => logger.warn('sweep failed', { error }))
      .finally(() => (sweeping = false));
  }, deps.intervalMs);
  timer.unref();
  return { sweep, stop: () => clearInterval(timer) };
}
