import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { recordingsService } from '@shared/contract/recordings';
import { ContractFailure } from '@shared/contract/result';
import type { ServiceImpl } from '@shared/contract/define-service';
import { writeFileAtomic } from '../platform/atomic-write';
import type { RelayStreams } from '../relay/relay-capability';
import type { StorageAccounts, TransferUploads } from '../storage/client/storage-capability';
import { recordedClip } from './clip-maker';
import { memoryClip, type MadeClip } from './live-buffer';
import { clipKey, snapshotKey } from './live-keys';
import type { RecordingSettings } from './recordings-config';
import type { SegmentCatalog, SegmentPlace } from './segment-catalog';
import { takeSnapshot, type SnapshotSource } from './snapshot-to-bucket';
import type { Spool } from './spool';

export interface LiveToBucketDeps {
  relay: RelayStreams;
  storage: StorageAccounts;
  /** Absent when the storage client runs without its transfer queue. */
  uploads: TransferUploads | undefined;
  snapshots: SnapshotSource;
  settingsOf(stream: string): RecordingSettings | undefined;
  placeOf(settings: RecordingSettings): Promise<SegmentPlace>;
  /** The account's id for a recording's `account:` (an id or a name). */
  accountIdOf(account: string): Promise<string>;
  catalog: SegmentCatalog;
  spool: Spool;
  /** `data_dir/recordings/outbox`: snapshots and clips are written here, then moved into the transfer queue. */
  outbox: string;
}

type Methods = ServiceImpl<typeof recordingsService>;
type Destination = Parameters<Methods['snapshotToBucket']>[0];

/**
 * Snapshots and clips of live streams into buckets (`snapshotToBucket`, `clipToBucket`,
 * `liveBuffer` of the recordings service): made in main, written atomically into data_dir, then
 * handed to the storage client's transfer queue, so they show in the transfer panel with their
 * progress and end like any upload.
 */
export function liveToBucket(deps: LiveToBucketDeps): Pick<Methods, 'liveBuffer' | 'snapshotToBucket' | 'clipToBucket'> {
  const known = (stream: string) => {
    if (!deps.relay.streams.get(stream)) throw new ContractFailure('not_found', `there is no stream ${stream}`);
  };

  /** The recording's bucket for a recorded stream, else the one asked for, which must exist. */
  async function destination(input: Destination) {
    const settings = deps.settingsOf(input.stream);
    if (settings) {
      return { accountId: await deps.accountIdOf(settings.account), bucket: settings.bucket, prefix: input.prefix ?? settings.prefix };
    }
    if (!input.bucket)
      throw new ContractFailure('invalid_input', `${input.stream} is not recorded: choose the bucket its snapshots and clips go into`);
    const client = await deps.storage.clientFor(input.accountId);
    const buckets = await client.listBuckets();
    if (!buckets.some((b) => b.name === input.bucket))
      throw new ContractFailure('not_found', `there is no bucket ${input.bucket} in storage account ${input.accountId}`);
    return { accountId: input.accountId, bucket: input.bucket, prefix: input.prefix ?? '' };
  }

  async function upload(place: { accountId: string; bucket: string }, key: string, bytes: Uint8Array) {
    if (!deps.uploads) throw new ContractFailure('unavailable', 'uploads need the storage client and its transfer queue');
    const file = join(deps.outbox, `${randomUUID()}${key.slice(key.lastIndexOf('.'))}`);
    await writeFileAtomic(file, bytes, 0o600);
    try {
      const transfer = await deps.uploads.uploadFile({ ...place, key, name: key, file });
      return { transferId: transfer.id, accountId: place.accountId, bucket: place.bucket, key, bytes: bytes.length };
    } catch (error) {
      await rm(file, { force: true });
      throw error;
    }
  }

  async function clipOf(stream: string, seconds: number, nowMs: number): Promise<MadeClip | undefined> {
    const settings = deps.settingsOf(stream);
    if (!settings) return memoryClip(deps.relay, stream);
    const place = await deps.placeOf(settings);
    return (
      (await recordedClip({ stream, place, catalog: deps.catalog, spool: deps.spool, seconds, nowMs })) ?? memoryClip(deps.relay, stream)
    );
  }

  return {
    liveBuffer: async ({ stream }) => {
      known(stream);
      const settings = deps.settingsOf(stream);
      const memory = await memoryClip(deps.relay, stream);
      return {
        ...(settings ? { recording: { account: settings.account, bucket: settings.bucket, prefix: settings.prefix } } : {}),
        memorySeconds: memory?.seconds ?? 0,
      };
    },
    snapshotToBucket: async (input) => {
      known(input.stream);
      const place = await destination(input);
      const atMs = Date.now();
      const jpeg = await takeSnapshot(deps.snapshots, input.stream);
      return upload(place, snapshotKey(place.prefix, input.stream, atMs), jpeg);
    },
    clipToBucket: async ({ seconds, ...input }) => {
      known(input.stream);
      const place = await destination(input);
      const nowMs = Date.now();
      const clip = await clipOf(input.stream, seconds, nowMs);
      if (!clip)
        throw new ContractFailure(
          'not_found',
          `nothing of ${input.stream} is buffered: the relay holds a stream's pictures only while its source is connected, and it is not recorded`,
        );
      return { ...(await upload(place, clipKey(place.prefix, input.stream, nowMs), clip.bytes)), seconds: clip.seconds };
    },
  };
}
