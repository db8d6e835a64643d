import type { ProcessingJob } from '@shared/contract/processing';
import type { Logger } from '@main/platform/logger';
import type { KodoClient } from '../kodo-client';

export interface ProcessingJobsDeps {
  clientFor(accountId: string): Promise<KodoClient>;
  onJob(job: ProcessingJob): void;
  /** A result was saved: the index learns of the new object. */
  onSaved?(job: ProcessingJob): void;
  logger: Logger;
  pollEveryMs?: number;
  /** Jobs kept for the list, newest first. */
  keep?: number;
}

export interface ProcessingJobs {
  start(request: {
    accountId: string;
    bucket: string;
    key: string;
    command: string;
    saveAs: { bucket: string; key: string };
  }): Promise<ProcessingJob>;
  list(): ProcessingJob[];
  close(): void;
}

const STATE_OF_CODE: Record<number, ProcessingJob['state']> = { 0: 'done', 1: 'waiting', 2: 'processing', 3: 'failed', 4: 'done' };

/**
 * Persistent processing started from the console and followed through prefop until it ends,
 * each change pushed as it is seen. Jobs of this run are listed; their results stay in the bucket.
 */
export function createProcessingJobs(deps: ProcessingJobsDeps): ProcessingJobs {
  const jobs: ProcessingJob[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const update = (job: ProcessingJob, change: Partial<ProcessingJob>) => {
    Object.assign(job, change);
    deps.onJob({ ...job });
  };

  const follow = (job: ProcessingJob) => {
    const timer = setTimeout(async () => {
      timers.delete(timer);
      if (closed) return;
      try {
        const status = await (await deps.clientFor(job.accountId)).prefop(job.id);
        const state = STATE_OF_CODE[status.code] ?? 'processing';
        if (state === 'failed') {
          const item = status.items?.find((i) => i.error || i.code !== 0);
          update(job, { state, error: item?.error ?? item?.desc ?? status.desc ?? 'the processing failed', finishedAt: Date.now() });
          return;
        }
        if (state !== job.state) update(job, { state, ...(state === 'done' ? { finishedAt: Date.now() } : {}) });
        if (state === 'done') deps.onSaved?.(job);
        else follow(job);
      } catch (error) {
        // The service is unreachable for a moment: ask again, a little later.
        deps.logger.warn('processing status could not be read', {
          id: job.id,
          error: error instanceof Error ? error.message : String(error),
        });
        follow(job);
      }
    }, deps.pollEveryMs ?? 1000);
    timer.unref();
    timers.add(timer);
  };

  return {
    async start({ accountId, bucket, key, command, saveAs }) {
      const client = await deps.clientFor(accountId);
      const id = await client.pfop(bucket, key, command, saveAs);
      const job: ProcessingJob = { id, accountId, bucket, key, command, saveAs, state: 'waiting', createdAt: Date.now() };
      jobs.unshift(job);
      jobs.splice(deps.keep ?? 200);
      deps.onJob({ ...job });
      follow(job);
      return { ...job };
    },
    list: () => jobs.map((job) => ({ ...job })),
    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
