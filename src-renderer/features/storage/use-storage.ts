import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { unwrap } from '../../../src-shared/contract/result';
import type { BatchStatus, IndexStatus, SortField, SortedPage, StorageAccount } from '../../../src-shared/contract/storage';
import { useApi } from '../../api/api-context';
import { queryKeys } from '../../api/query-keys';
import { useServiceEvent } from '../../api/use-service-event';

/** Accounts: read once, then kept fresh by main's `onAccounts`. */
export function useStorageAccounts() {
  const api = useApi();
  const queryClient = useQueryClient();
  useServiceEvent(api.storage.onAccounts, (list: StorageAccount[]) => queryClient.setQueryData(queryKeys.storageAccounts, list));
  return useQuery({ queryKey: queryKeys.storageAccounts, queryFn: async () => unwrap(await api.storage.listAccounts()), staleTime: Infinity });
}

export function useBuckets(accountId: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.storageBuckets(accountId ?? ''),
    queryFn: async () => unwrap(await api.storage.listBuckets({ accountId: accountId! })),
    enabled: Boolean(accountId),
    staleTime: 30_000,
  });
}

const LISTING_PAGE = 1000;

/** One folder level from the service in key order, a page of 1000 at a time as the user scrolls. */
export function useFolderListing(accountId: string, bucket: string, prefix: string, search: string, enabled: boolean) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: [...queryKeys.storageBucket(accountId, bucket), 'list', prefix, search],
    queryFn: async ({ pageParam }) =>
      unwrap(await api.storage.listObjects({ accountId, bucket, prefix: prefix + search, limit: LISTING_PAGE, ...(pageParam ? { marker: pageParam } : {}) })),
    initialPageParam: '',
    getNextPageParam: (last) => last.marker,
    enabled,
  });
}

export const SORTED_PAGE = 200;

/** The index's status of a folder, pushed by main after each listed page. */
export function useIndexStatus(accountId: string, bucket: string, prefix: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const key = [...queryKeys.storageBucket(accountId, bucket), 'index', prefix];
  useServiceEvent(api.storage.onIndex, (status: IndexStatus) => {
    if (status.accountId !== accountId || status.bucket !== bucket) return;
    // A listing of this folder or of a folder above it changes what is known here.
    if (status.prefix === prefix) queryClient.setQueryData(key, status);
    else if (prefix.startsWith(status.prefix) && status.state === 'complete') void queryClient.invalidateQueries({ queryKey: key });
  });
  return useQuery({ queryKey: key, queryFn: async () => unwrap(await api.storage.indexStatus({ accountId, bucket, prefix })), staleTime: Infinity });
}

/**
 * One level from the index, sorted over the whole folder, read a page of 200 at a time where the
 * user is looking: `pageAt(n)` asks for the page of row n, so a jump to the end loads the end.
 */
export function useSortedPages(accountId: string, bucket: string, prefix: string, search: string, sort: SortField, descending: boolean, index: IndexStatus | undefined) {
  const api = useApi();
  const queryClient = useQueryClient();
  const base = [...queryKeys.storageBucket(accountId, bucket), 'sorted', prefix, search, sort, descending];
  // While the index grows, the rows already shown are read again at most once a second.
  const lastRefresh = useRef(0);
  useEffect(() => {
    if (index?.state !== 'running' && index?.state !== 'complete') return;
    const wait = Math.max(0, 1000 - (Date.now() - lastRefresh.current));
    const timer = setTimeout(() => {
      lastRefresh.current = Date.now();
      void queryClient.invalidateQueries({ queryKey: base });
    }, wait);
    return () => clearTimeout(timer);
    // Keyed on progress only: the rows are read again when the index grows, not on every render.
  }, [index?.listed, index?.state]);
  return {
    queryKey: base,
    page: (n: number) => ({
      queryKey: [...base, n],
      queryFn: async (): Promise<SortedPage> =>
        unwrap(await api.storage.listSorted({ accountId, bucket, prefix, search, sort, descending, offset: n * SORTED_PAGE, limit: SORTED_PAGE })),
      placeholderData: (previous: SortedPage | undefined) => previous,
    }),
  };
}

/** Recent and running batches, kept fresh by main's `onBatch`; a finished one refreshes its bucket. */
export function useBatches() {
  const api = useApi();
  const queryClient = useQueryClient();
  useServiceEvent(api.storage.onBatch, (status: BatchStatus) => {
    queryClient.setQueryData(queryKeys.storageBatches, (list: BatchStatus[] | undefined) => [status, ...(list ?? []).filter((b) => b.id !== status.id)]);
    if (status.state === 'done' || status.state === 'failed') void queryClient.invalidateQueries({ queryKey: ['storage', 'bucket', status.accountId] });
  });
  return useQuery({ queryKey: queryKeys.storageBatches, queryFn: async () => unwrap(await api.storage.listBatches()), staleTime: Infinity });
}

/** A mutation whose success refreshes everything read from one bucket. */
export function useBucketMutation<I, O>(accountId: string, bucket: string, run: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.storageBucket(accountId, bucket) }),
  });
}

/** Every object under a folder, counted by main from the service's listing: only while everything is selected. */
export function useObjectCount(accountId: string, bucket: string, prefix: string, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: [...queryKeys.storageBucket(accountId, bucket), 'count', prefix],
    queryFn: async () => unwrap(await api.storage.countObjects({ accountId, bucket, prefix })),
    enabled,
    staleTime: 30_000,
  });
}
