import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, useSyncExternalStore } from 'react';
import type { BatchItem } from '@shared/contract/storage';
import type { ConflictChoice, TransferStatus } from '@shared/contract/transfers';
import { useApi } from '../../api/api-context';
import { callService, serviceKey } from '../../api/service-query';
import { useServiceEvent } from '../../api/use-service-event';
import { useServiceMutation, useServiceQuery } from '../../api/use-service-query';
import { bucketReads } from './bucket-reads';
import { mergeTransfers } from './model/transfer-totals';
import { uploadPlan } from './model/upload-files';
import {
  applyDecisions,
  conflictsLeft,
  currentConflict,
  decide,
  startConflicts,
  type ConflictRound,
  type PlannedUpload,
} from './model/upload-conflicts';
import { useUploadQueue } from './upload-queue-context';

/** Every transfer, read once and then kept current by main's pushes (several a second while running). */
export function useTransfers() {
  const api = useApi();
  const queryClient = useQueryClient();
  const uploads = useUploadQueue();
  useServiceEvent(api.transfers.onTransfers, (changed: TransferStatus[]) => {
    queryClient.setQueryData(serviceKey('transfers', 'list'), (list) => (list ? mergeTransfers(list, changed) : list));
    // A resumed upload that was paused while being read: this page sends the rest, if it holds the file.
    for (const t of changed) if (t.kind === 'upload' && t.state === 'receiving') uploads.wake(t.id);
    // A finished upload is a new object: the folders of its bucket are read again.
    const buckets = new Set(
      changed.filter((t) => t.kind === 'upload' && t.state === 'done').map((t) => JSON.stringify([t.accountId, t.bucket])),
    );
    for (const bucket of buckets) {
      const [accountId, name] = JSON.parse(bucket) as [string, string];
      void queryClient.invalidateQueries(bucketReads(accountId, name));
    }
  });
  useServiceEvent(api.transfers.onRemoved, ({ ids }: { ids: string[] }) => {
    const gone = new Set(ids);
    queryClient.setQueryData(serviceKey('transfers', 'list'), (list) => list?.filter((t) => !gone.has(t.id)));
  });
  return useServiceQuery('transfers', 'list', undefined, { staleTime: Infinity });
}

export function useTransferSettings() {
  return useServiceQuery('transfers', 'settings', undefined, { staleTime: Infinity });
}

export function useSetConcurrency() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (concurrency: number) => callService(api, 'transfers', 'setConcurrency', { concurrency }),
    onSuccess: (settings) => queryClient.setQueryData(serviceKey('transfers', 'settings'), settings),
  });
}

/** The uploads whose file this page holds; the others being read need it chosen again. */
export function useHeldUploads(): ReadonlySet<string> {
  const uploads = useUploadQueue();
  return useSyncExternalStore(uploads.subscribe, uploads.held);
}

/**
 * "Choose the file again" for an upload this page lost the file of: the console goes on from the
 * bytes it already holds. A paused upload is resumed too.
 */
export function useChooseAgain() {
  const api = useApi();
  const uploads = useUploadQueue();
  return useMutation({
    mutationFn: async ({ transfer, file }: { transfer: TransferStatus; file: File }) => {
      if (transfer.state === 'paused') await callService(api, 'transfers', 'resume', { ids: [transfer.id] });
      uploads.add([{ id: transfer.id, file }]);
    },
  });
}

/** Pause, resume, cancel or retry some transfers; cancel also stops this page sending their bytes. */
export function useTransferAction() {
  const api = useApi();
  const uploads = useUploadQueue();
  return useMutation({
    mutationFn: async ({ action, ids }: { action: 'pause' | 'resume' | 'cancel' | 'retry'; ids: string[] }) => {
      if (action === 'cancel') ids.forEach((id) => uploads.drop(id));
      await callService(api, 'transfers', action, { ids });
    },
  });
}

export function useClearFinished() {
  return useServiceMutation('transfers', 'clearFinished');
}

interface Asking {
  files: Array<PlannedUpload<File>>;
  duplicates: string[];
  round: ConflictRound;
}

/** The question the conflict dialog shows, or undefined when none is open. */
export interface ConflictQuestion {
  path: string;
  /** Conflicts without an answer yet, this one included. */
  left: number;
  total: number;
}

/**
 * Uploads files into a folder. Names the bucket already holds are asked about first (overwrite,
 * skip or keep both; once for all with "apply to all"), as a file manager does. The desktop app
 * names each file's path and main reads it from disk; a browser keeps the files and sends their
 * bytes to the console.
 */
export function useUploadFiles(accountId: string, bucket: string, prefix: string) {
  const api = useApi();
  const uploads = useUploadQueue();
  const pathForFile = window.relayConsole?.pathForFile;
  const [asking, setAsking] = useState<Asking>();

  const send = useMutation({
    mutationFn: async ({
      files: planned,
      duplicates,
      skipped,
    }: {
      files: Array<PlannedUpload<File> & { onConflict?: 'overwrite' | 'keep-both' }>;
      duplicates: string[];
      skipped: string[];
    }) => {
      const files = planned.map(({ file, relativePath, onConflict }) => {
        const path = pathForFile?.(file);
        return {
          relativePath,
          size: file.size,
          lastModified: file.lastModified,
          ...(onConflict ? { onConflict } : {}),
          ...(path ? { path } : {}),
        };
      });
      const added = await callService(api, 'transfers', 'addUploads', { accountId, bucket, prefix, files });
      uploads.add(added.flatMap((t, i) => (t.state === 'receiving' ? [{ id: t.id, file: planned[i]!.file }] : [])));
      return { added: added.length, duplicates, skipped };
    },
    onSuccess: ({ added, duplicates, skipped }) =>
      notifyQueued(added, duplicates, skipped, `Into kodo://${bucket}/${prefix}. Follow them under Transfers.`),
  });

  const check = useMutation({
    mutationFn: async (chosen: File[]) => {
      const plan = uploadPlan(chosen);
      const { existing } = await callService(api, 'transfers', 'conflicts', {
        accountId,
        bucket,
        prefix,
        relativePaths: plan.files.map((f) => f.relativePath),
      });
      return { ...plan, existing };
    },
    onSuccess: ({ files, duplicates, existing }) => {
      if (existing.length === 0) send.mutate({ files, duplicates, skipped: [] });
      else setAsking({ files, duplicates, round: startConflicts(existing) });
    },
  });

  const answer = (choice: ConflictChoice, applyToAll: boolean) => {
    if (!asking) return;
    const round = decide(asking.round, choice, applyToAll);
    if (currentConflict(round) !== undefined) return setAsking({ ...asking, round });
    setAsking(undefined);
    const plan = applyDecisions(asking.files, round);
    if (plan.files.length > 0) send.mutate({ files: plan.files, duplicates: asking.duplicates, skipped: plan.skipped });
    else notifyQueued(0, asking.duplicates, plan.skipped, 'Every file was skipped: the folder already holds them.');
  };

  const path = asking ? currentConflict(asking.round) : undefined;
  return {
    start: (files: File[]) => check.mutate(files),
    busy: check.isPending || send.isPending,
    error: check.error ?? send.error,
    question:
      asking && path !== undefined
        ? ({ path, left: conflictsLeft(asking.round), total: asking.round.conflicts.length } satisfies ConflictQuestion)
        : undefined,
    answer,
    cancel: () => setAsking(undefined),
  };
}

function notifyQueued(added: number, duplicates: string[], skipped: string[], message: string) {
  const names = (list: string[]) =>
    `${list.slice(0, 3).join(', ')}${list.length > 3 ? ` and ${(list.length - 3).toLocaleString('en-US')} more` : ''}`;
  const notes = [
    duplicates.length > 0 ? `Left out, named twice: ${names(duplicates)}.` : '',
    skipped.length > 0 ? `Skipped, already in the folder: ${names(skipped)}.` : '',
  ].filter(Boolean);
  notifications.show({
    title: `${added.toLocaleString('en-US')} ${added === 1 ? 'file' : 'files'} queued for upload`,
    message: notes.length > 0 ? notes.join(' ') : message,
  });
}

export function useDownloadItems(accountId: string, bucket: string, prefix: string) {
  const api = useApi();
  return useMutation({
    /** Chosen items, or (`allIn`) everything in the folder, listed by main. */
    mutationFn: (target: { items: BatchItem[] } | { allIn: string }) =>
      callService(api, 'transfers', 'addDownloads', { accountId, bucket, prefix, ...target }),
    onSuccess: ({ added }) =>
      notifications.show({
        title: `${added.toLocaleString('en-US')} ${added === 1 ? 'file' : 'files'} queued for download`,
        message: 'Follow them under Transfers.',
      }),
  });
}
