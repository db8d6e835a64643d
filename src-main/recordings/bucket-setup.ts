import { createHash } from 'node:crypto';
import { ContractFailure } from '../../src-shared/contract/result';
import type { LifecycleRule } from '../../src-shared/contract/storage';
import type { Logger } from '../platform/logger';
import type { KodoClient } from '../storage/client/kodo-client';
import type { RecordingSettings } from './recordings-config';

/** The lifecycle rule that keeps a stream's segments `retain_days`: one per prefix, named after it. */
function retentionRule(settings: Pick<RecordingSettings, 'stream' | 'prefix'>, days: number): LifecycleRule {
  // Rule names: letters, digits and _ (1-49); a digest keeps two prefixes apart.
  const digest = createHash('sha256').update(settings.prefix).digest('hex').slice(0, 8);
  const readable = settings.stream.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 30);
  return {
    name: `rec_${readable}_${digest}`,
    prefix: settings.prefix,
    toInfrequentAfterDays: 0,
    toArchiveAfterDays: 0,
    deleteAfterDays: days,
  };
}

/**
 * Makes a bucket ready for a stream's segments, before its first upload: the embedded
 * emulator's bucket is created when missing (nothing to set up for a first recording); a real
 * account's must exist. With `retain_days`, the prefix's lifecycle rule is saved (Kodo deletes
 * each segment that many days after its upload).
 */
export async function prepareBucket(
  client: KodoClient,
  settings: Pick<RecordingSettings, 'stream' | 'prefix' | 'bucket' | 'retain_days'> & { account: string },
  options: { local: boolean; logger: Logger },
): Promise<void> {
  const buckets = await client.listBuckets();
  if (!buckets.some((b) => b.name === settings.bucket)) {
    if (!options.local)
      throw new ContractFailure(
        'not_found',
        `the bucket ${settings.bucket} does not exist in the storage account ${settings.account}: create it, or name another under recordings.${settings.stream}.bucket`,
      );
    await client.createBucket(settings.bucket, 'z0');
    options.logger.info('recordings: created the bucket in the local storage emulator', { bucket: settings.bucket });
  }
  if (settings.retain_days !== undefined) await client.saveLifecycleRule(settings.bucket, retentionRule(settings, settings.retain_days));
}
