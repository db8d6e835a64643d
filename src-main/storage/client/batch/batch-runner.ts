import { randomUUID } from 'node:crypto';
import { ContractFailure } from '@shared/contract/result';
import { batchRequestSchema, type BatchRequest, type BatchStatus, type ObjectSummary } from '@shared/contract/storage';
import type { Logger } from '@main/platform/logger';
import type { IndexScope, IndexStore } from '../folder-index/index-store';
import { BATCH_LIMIT, type BatchOperation, type KodoClient } from '../kodo-client';
import { destinationOf, itemsOf, planProblem, titleOf, type PlannedItem, type PlannedKey } from './batch-plan';

export interface BatchRunnerOptions {
  clientFor(accountId: string): Promise<KodoClient>;
  /** Kept true after each chunk, so counts and sorted views follow the user's own changes. */
  index: IndexStore;
  onStatus(status: BatchStatus): void;
  logger: Logger;
}

export interface BatchRunner {
  start(request: BatchRequest): Promise<BatchStatus>;
  list(): BatchStatus[];
  close(): Promise<void>;
}

const KEPT_ERRORS = 20;
const KEPT_BATCHES = 50;

/**
 * Delete, move, copy and rename of files and whole folders: folders are listed key by key,
 * then sent to Kodo's batch API at most 1000 keys at a time, with progress after each chunk.
 */
export function createBatchRunner({ clientFor, index, onStatus, logger }: BatchRunnerOptions): BatchRunner {
  const batches = new Map<string, BatchStatus>();
  const running = new Set<Promise<void>>();
  let closing = false;

  const update = (status: BatchStatus, change: Partial<BatchStatus>): BatchStatus => {
    Object.assign(status, change);
    onStatus({ ...status, errors: [...status.errors] });
    return status;
  };

  const fail = (status: BatchStatus, key: string, message: string) => {
    status.failed += 1;
    if (status.errors.length < KEPT_ERRORS) status.errors.push({ key, message });
  };

  /** Every key under an item with what is known of it, listed page by page. */
  async function* keysOf(
    client: KodoClient,
    scope: IndexScope,
    item: PlannedItem,
  ): AsyncGenerator<{ key: string; summary?: ObjectSummary }> {
    if (!item.folder) {
      yield { key: item.key, summary: index.object(scope, item.key) };
      return;
    }
    let marker: string | undefined;
    do {
      const page = await client.listObjects(scope.bucket, {
        prefix: item.key,
        delimiter: '',
        limit: BATCH_LIMIT,
        ...(marker ? { marker } : {}),
      });
      // Everything in a folder leaves the folder's own marker: the folder stays, emptied.
      for (const object of page.objects) if (!(item.contents && object.key === item.key)) yield { key: object.key, summary: object };
      marker = page.marker;
    } while (marker && !closing);
  }

  const execute = async (request: BatchRequest, status: BatchStatus): Promise<void> => {
    const scope = { accountId: request.accountId, bucket: request.bucket };
    const client = await clientFor(request.accountId);
    const items = itemsOf(request);
    let chunk: Array<PlannedKey & { summary?: ObjectSummary }> = [];

    const flush = async () => {
      if (chunk.length === 0) return;
      const sent = chunk;
      chunk = [];
      const operations: BatchOperation[] = sent.map((p) =>
        request.kind === 'delete'
          ? { op: 'delete', bucket: request.bucket, key: p.key }
          : {
              op: request.kind === 'copy' ? 'copy' : 'move',
              bucket: request.bucket,
              key: p.key,
              toBucket: p.toBucket!,
              toKey: p.toKey!,
              force: request.overwrite ?? false,
            },
      );
      const outcomes = await client.batch(operations);
      const moved: string[] = [];
      const placed: ObjectSummary[] = [];
      sent.forEach((p, i) => {
        const outcome = outcomes[i] ?? { ok: false as const, message: 'no answer for this key' };
        if (!outcome.ok) return fail(status, p.key, outcome.message);
        status.done += 1;
        if (request.kind !== 'copy') moved.push(p.key);
        if (p.toKey && p.summary) placed.push({ ...p.summary, key: p.toKey });
      });
      index.removeKeys(scope, moved);
      if (placed.length > 0) index.putObjects({ accountId: request.accountId, bucket: sent[0]!.toBucket ?? request.bucket }, placed);
      update(status, { state: 'running' });
    };

    for (const item of items) {
      for await (const { key, summary } of keysOf(client, scope, item)) {
        if (closing) return;
        chunk.push({ ...destinationOf(request, item, key), ...(summary ? { summary } : {}) });
        status.total += 1;
        if (chunk.length === BATCH_LIMIT) await flush();
      }
    }
    await flush();
  };

  return {
    async start(input) {
      const request = batchRequestSchema.parse(input);
      const problem = planProblem(request);
      if (problem) throw new ContractFailure('invalid_input', problem);
      await clientFor(request.accountId);
      const status: BatchStatus = {
        id: randomUUID(),
        kind: request.kind,
        accountId: request.accountId,
        bucket: request.bucket,
        title: titleOf(request),
        state: 'listing',
        done: 0,
        failed: 0,
        total: 0,
        errors: [],
      };
      batches.set(status.id, status);
      for (const old of [...batches.keys()].slice(0, Math.max(0, batches.size - KEPT_BATCHES))) batches.delete(old);
      const job = execute(request, status)
        .then(() => update(status, { state: status.failed > 0 ? 'failed' : 'done' }))
        .catch((error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          fail(status, '', message);
          update(status, { state: 'failed' });
          logger.warn('storage batch failed', { batch: status.title, error: message });
        })
        .then(() => undefined);
      running.add(job);
      void job.finally(() => running.delete(job));
      return { ...status, errors: [] };
    },
    list: () => [...batches.values()].map((s) => ({ ...s, errors: [...s.errors] })).reverse(),
    async close() {
      closing = true;
      await Promise.allSettled([...running]);
    },
  };
}
