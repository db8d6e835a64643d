import { ContractFailure } from '../../src-shared/contract/result';
import type { Logger } from '../platform/logger';
import type { KodoClient } from '../storage/client/kodo-client';
import { fileEtag } from '../storage/client/kodo-transfers';
import { segmentsToDrop } from './spool-bounds';
import type { Spool, SpoolEntry, UploadTarget } from './spool';

/** How one stream's uploads stand, for its status. */
interface UploadState {
  spooled: number;
  spooledBytes: number;
  uploaded: number;
  dropped: number;
  /** Why the last upload failed, while uploads fail. */
  error?: string;
  /** Since when uploads have been failing (ms). */
  failingSince?: number;
}

export interface UploaderDeps {
  spool: Spool;
  /** The SDK client of a target's account (by id or name). */
  clientFor(account: string): Promise<KodoClient>;
  /** Makes the bucket ready before an upload (exists, lifecycle rule; quick once done); throws to retry later. */
  prepare(target: UploadTarget, client: KodoClient): Promise<void>;
  /** Resumable upload records (segments above 4 MiB go up in parts). */
  resumeDir: string;
  /** A segment is in the bucket. */
  onUploaded(entry: SpoolEntry): void;
  onChange(stream: string): void;
  logger: Logger;
}

export interface SegmentUploader {
  /** Uploads a stream's spooled segments, oldest first, from now on until its spool is empty. */
  kick(stream: string): void;
  /** Drops the oldest spooled segments beyond `maxBytes` (never the one being uploaded). */
  trim(stream: string, maxBytes: number): Promise<void>;
  state(stream: string): UploadState;
  /** Waits up to `ms` for every stream's spool to be empty (a clean stop uploads its last segments when it can). */
  drain(ms: number): Promise<void>;
  /** Stops: the upload in flight stops after its current part; its record lets the next start go on. */
  close(): Promise<void>;
}

const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 60_000;
const CLOSE_WAIT_MS = 3_000;

interface Lane {
  running?: Promise<void>;
  busy?: SpoolEntry;
  wake?: () => void;
  retryMs: number;
  uploaded: number;
  dropped: number;
  error?: string;
  failingSince?: number;
}

/**
 * Empties the spool into the bucket: per stream one upload at a time, oldest first (keys
 * sort by time, and a bucket that comes back gets the recording in order), each checked
 * against the service's etag, retried with back-off (1 s doubling to a minute) for as long as
 * the bucket cannot be reached. A segment leaves the spool only once it is in the bucket.
 */
export function createSegmentUploader(deps: UploaderDeps): SegmentUploader {
  const lanes = new Map<string, Lane>();
  const stop = new AbortController();
  const laneOf = (stream: string) => {
    let lane = lanes.get(stream);
    if (!lane) lanes.set(stream, (lane = { retryMs: FIRST_RETRY_MS, uploaded: 0, dropped: 0 }));
    return lane;
  };

  async function upload(entry: SpoolEntry): Promise<void> {
    const { target } = entry;
    const client = await deps.clientFor(target.account);
    await deps.prepare(target, client);
    const uploaded = await client.upload({
      bucket: target.bucket,
      key: target.key,
      filePath: entry.file,
      size: entry.bytes,
      // A retry after a crash may find its own earlier upload there.
      overwrite: true,
      metadata: target.metadata,
      mimeType: 'video/mp4',
      resumeDir: deps.resumeDir,
      resumeKey: entry.id,
      signal: stop.signal,
      onProgress: () => undefined,
    });
    // A form upload's bytes were checked by the service against their CRC-32; a resumable
    // upload's whole is checked here by its etag.
    if (uploaded.crcChecked) return;
    const expected = await fileEtag(entry.file);
    if (uploaded.hash !== expected)
      throw new ContractFailure(
        'conflict',
        `the bucket stored etag ${uploaded.hash} for ${target.key}, but the segment's etag is ${expected}`,
      );
  }

  async function drain(stream: string, lane: Lane): Promise<void> {
    for (;;) {
      const entry = deps.spool.entries(stream)[0];
      if (!entry || stop.signal.aborted) return;
      lane.busy = entry;
      try {
        await upload(entry);
        lane.busy = undefined;
        await deps.spool.remove(entry);
        lane.uploaded++;
        if (lane.error) deps.logger.info('recording uploads go on', { stream, bucket: entry.target.bucket });
        lane.error = undefined;
        lane.failingSince = undefined;
        lane.retryMs = FIRST_RETRY_MS;
        deps.onUploaded(entry);
        deps.onChange(stream);
      } catch (error) {
        lane.busy = undefined;
        if (stop.signal.aborted) return;
        const message = error instanceof Error ? error.message : String(error);
        if (lane.error !== message)
          deps.logger.warn('a recording segment could not be uploaded; it stays in the spool and is tried again', {
            stream,
            bucket: entry.target.bucket,
            key: entry.target.key,
            error: message,
          });
        lane.error = message;
        lane.failingSince ??= Date.now();
        deps.onChange(stream);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, lane.retryMs);
          lane.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        lane.wake = undefined;
        lane.retryMs = Math.min(LAST_RETRY_MS, lane.retryMs * 2);
      }
    }
  }

  function kick(stream: string): void {
    const lane = laneOf(stream);
    if (lane.running || stop.signal.aborted) return;
    lane.running = drain(stream, lane).finally(() => (lane.running = undefined));
  }

  return {
    kick,
    async trim(stream, maxBytes) {
      const lane = laneOf(stream);
      const entries = deps.spool.entries(stream);
      const drop = new Set(
        segmentsToDrop(
          entries.map((e) => ({ id: e.id, bytes: e.bytes, busy: e === lane.busy })),
          maxBytes,
        ),
      );
      for (const entry of entries.filter((e) => drop.has(e.id))) {
        await deps.spool.remove(entry);
        lane.dropped++;
        deps.logger.warn(
          `the recording spool of ${stream} is over its limit while the bucket cannot be reached: the oldest segment was dropped`,
          { stream, key: entry.target.key, bytes: entry.bytes, limit: maxBytes },
        );
      }
      if (drop.size > 0) deps.onChange(stream);
    },
    state(stream) {
      const lane = lanes.get(stream);
      const entries = deps.spool.entries(stream);
      return {
        spooled: entries.length,
        spooledBytes: entries.reduce((n, e) => n + e.bytes, 0),
        uploaded: lane?.uploaded ?? 0,
        dropped: lane?.dropped ?? 0,
        ...(lane?.error ? { error: lane.error, failingSince: lane.failingSince } : {}),
      };
    },
    async drain(ms) {
      for (const stream of deps.spool.streams()) kick(stream);
      await settleWithin(
        [...lanes.values()].map((lane) => lane.running),
        ms,
      );
    },
    async close() {
      stop.abort();
      for (const lane of lanes.values()) lane.wake?.();
      // A form upload cannot be interrupted; one to a service that hangs is not waited for long.
      await settleWithin(
        [...lanes.values()].map((lane) => lane.running),
        CLOSE_WAIT_MS,
      );
    },
  };
}

/** Resolves when every promise has settled, or after `ms`, whichever comes first. */
async function settleWithin(promises: ReadonlyArray<Promise<void> | undefined>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([Promise.allSettled(promises), late]);
  clearTimeout(timer);
}
