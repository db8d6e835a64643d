import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../src-shared/contract/result';
import type { TransferStatus } from '../../../src-shared/contract/transfers';
import { useApi } from '../../api/api-context';
import { queryKeys } from '../../api/query-keys';
import { useServiceEvent } from '../../api/use-service-event';
import { mergeTransfers } from './model/transfer-totals';
import { uploadPlan } from './model/upload-files';
import { useUploadQueue } from './upload-queue-context';

/** Every transfer, read once and then kept current by main's pushes (several a second while running). */
export function useTransfers() {
  const api = useApi();
  const queryClient = useQueryClient();
  useServiceEvent(api.transfers.onTransfers, (changed: TransferStatus[]) => {
    queryClient.setQueryData<TransferStatus[]>(queryKeys.transfers, (list) => (list ? mergeTransfers(list, changed) : list));
    // A finished upload is a new object: the folders of its bucket are read again.
    const buckets = new Set(changed.filter((t) => t.kind === 'upload' && t.state === 'done').map((t) => JSON.stringify([t.accountId, t.bucket])));
    for (const bucket of buckets) {
      const [accountId, name] = JSON.parse(bucket) as [string, string];
      void queryClient.invalidateQueries({ queryKey: queryKeys.storageBucket(accountId, name) });
    }
  });
  useServiceEvent(api.transfers.onRemoved, ({ ids }: { ids: string[] }) => {
    const gone = new Set(ids);
    queryClient.setQueryData<TransferStatus[]>(queryKeys.transfers, (list) => list?.filter((t) => !gone.has(t.id)));
  });
  return useQuery({ queryKey: queryKeys.transfers, queryFn: async () => unwrap(await api.transfers.list()), staleTime: Infinity });
}

export function useTransferSettings() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.transferSettings, queryFn: async () => unwrap(await api.transfers.settings()), staleTime: Infinity });
}

export function useSetConcurrency() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (concurrency: number) => unwrap(await api.transfers.setConcurrency({ concurrency })),
    onSuccess: (settings) => queryClient.setQueryData(queryKeys.transferSettings, settings),
  });
}

/** Pause, resume, cancel or retry some transfers; cancel also stops this page sending their bytes. */
export function useTransferAction() {
  const api = useApi();
  const uploads = useUploadQueue();
  return useMutation({
    mutationFn: async ({ action, ids }: { action: 'pause' | 'resume' | 'cancel' | 'retry'; ids: string[] }) => {
      if (action === 'cancel') ids.forEach((id) => uploads.drop(id));
      unwrap(await api.transfers[action]({ ids }));
    },
  });
}

export function useClearFinished() {
  const api = useApi();
  return useMutation({ mutationFn: async () => unwrap(await api.transfers.clearFinished()) });
}

/**
 * Uploads files into a folder. The desktop app names each file's path and main reads it from
 * disk; a browser keeps the files and sends their bytes to the console.
 */
export function useUploadFiles(accountId: string, bucket: string, prefix: string) {
  const api = useApi();
  const uploads = useUploadQueue();
  const pathForFile = window.relayConsole?.pathForFile;
  return useMutation({
    mutationFn: async (chosen: File[]) => {
      const plan = uploadPlan(chosen);
      const files = plan.files.map(({ file, relativePath }) => {
        const path = pathForFile?.(file);
        return { relativePath, size: file.size, ...(path ? { path } : {}) };
      });
      const added = unwrap(await api.transfers.addUploads({ accountId, bucket, prefix, files }));
      uploads.add(added.flatMap((t, i) => (t.state === 'receiving' ? [{ id: t.id, file: plan.files[i]!.file }] : [])));
      return { added: added.length, duplicates: plan.duplicates };
    },
    onSuccess: ({ added, duplicates }) =>
      notifications.show({
        title: `${added.toLocaleString('en-US')} ${added === 1 ? 'file' : 'files'} queued for upload`,
        message: duplicates.length > 0 ? `Left out, named twice: ${duplicates.slice(0, 3).join(', ')}${duplicates.length > 3 ? '…' : ''}` : `Into kodo://${bucket}/${prefix}. Follow them under Transfers.`,
      }),
  });
}

export function useDownloadItems(accountId: string, bucket: string, prefix: string) {
  const api = useApi();
  return useMutation({
    mutationFn: async (items: Array<{ key: string; folder: boolean }>) => unwrap(await api.transfers.addDownloads({ accountId, bucket, prefix, items })),
    onSuccess: ({ added }) =>
      notifications.show({ title: `${added.toLocaleString('en-US')} ${added === 1 ? 'file' : 'files'} queued for download`, message: 'Follow them under Transfers.' }),
  });
}
