import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useRef } from 'react';
import type { BatchStatus, IndexStatus, SortField, SortedPage, StorageAccount } from '@shared/contract/storage';
import { useApi } from '../../api/api-context';
import { callService, serviceFilter, serviceKey, serviceQueryOptions } from '../../api/service-query';
import { useServiceEvent } from '../../api/use-service-event';
import { useServiceQuery } from '../../api/use-service-query';
import { bucketReads } from './bucket-reads';

/** Accounts: read once, then kept fresh by main's `onAccounts`. */
export function useStorageAccounts() {
  const api = useApi();
  const queryClient = useQueryClient();
  useServiceEvent(api.storage.onAccounts, (list: StorageAccount[]) =>
    queryClient.setQueryData(serviceKey('storage', 'listAccounts'), list),
  );
  return useServiceQuery('storage', 'listAccounts', undefined, { staleTime: Infinity });
}

export function useBuckets(accountId: string | undefined) {
  return useServiceQuery('storage', 'listBuckets', { accountId: accountId ?? '' }, { enabled: Boolean(accountId), staleTime: 30_000 });
}

const LISTING_PAGE = 1000;

/** One folder level from the service in key order, a page of 1000 at a time as the user scrolls. */
export function useFolderListing(accountId: string, bucket: string, prefix: string, search: string, enabled: boolean) {
  const api = useApi();
  const listing = { accountId, bucket, prefix: prefix + search, limit: LISTING_PAGE };
  return useInfiniteQuery({
    // The pages of one listing share its key; each page's marker is the page parameter.
    queryKey: [...serviceKey('storage', 'listObjects', listing)],
    queryFn: ({ pageParam }) => callService(api, 'storage', 'listObjects', { ...listing, ...(pageParam ? { marker: pageParam } : {}) }),
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
  const key = serviceKey('storage', 'indexStatus', { accountId, bucket, prefix });
  useServiceEvent(api.storage.onIndex, (status: IndexStatus) => {
    if (status.accountId !== accountId || status.bucket !== bucket) return;
    // A listing of this folder or of a folder above it changes what is known here.
    if (status.prefix === prefix) queryClient.setQueryData(key, status);
    else if (prefix.startsWith(status.prefix) && status.state === 'complete') void queryClient.invalidateQueries({ queryKey: key });
  });
  return useServiceQuery('storage', 'indexStatus', { accountId, bucket, prefix }, { staleTime: Infinity });
}

/**
 * One level from the index, sorted over the whole folder, read a page of 200 at a time where the
 * user is looking: `pageAt(n)` asks for the page of row n, so a jump to the end loads the end.
 * `view` names what is shown (folder, search and order), whichever pages are loaded.
 */
export function useSortedPages(
  accountId: string,
  bucket: string,
  prefix: string,
  search: string,
  sort: SortField,
  descending: boolean,
  index: IndexStatus | undefined,
) {
  const api = useApi();
  const queryClient = useQueryClient();
  const view = { accountId, bucket, prefix, search, sort, descending };
  // While the index grows, the pages of what is shown now are read again at most once a second.
  const lastRefresh = useRef(0);
  const refreshShown = useEffectEvent(() => {
    lastRefresh.current = Date.now();
    void queryClient.invalidateQueries(serviceFilter('storage', 'listSorted', view));
  });
  useEffect(() => {
    if (index?.state !== 'running' && index?.state !== 'complete') return;
    const timer = setTimeout(refreshShown, Math.max(0, 1000 - (Date.now() - lastRefresh.current)));
    return () => clearTimeout(timer);
    // Keyed on the index's progress: a new sort or search reads its own pages anyway.
  }, [index?.listed, index?.state]);
  return {
    view: JSON.stringify(view),
    page: (n: number) => ({
      ...serviceQueryOptions(api, 'storage', 'listSorted', { ...view, offset: n * SORTED_PAGE, limit: SORTED_PAGE }),
      placeholderData: (previous: SortedPage | undefined) => previous,
    }),
  };
}

/** Recent and running batches, kept fresh by main's `onBatch`; a finished one refreshes its account's buckets. */
export function useBatches() {
  const api = useApi();
  const queryClient = useQueryClient();
  useServiceEvent(api.storage.onBatch, (status: BatchStatus) => {
    queryClient.setQueryData(serviceKey('storage', 'listBatches'), (list) => [status, ...(list ?? []).filter((b) => b.id !== status.id)]);
    if (status.state === 'done' || status.state === 'failed') void queryClient.invalidateQueries(bucketReads(status.accountId));
  });
  return useServiceQuery('storage', 'listBatches', undefined, { staleTime: Infinity });
}

/** A mutation whose success refreshes everything read from one bucket. */
export function useBucketMutation<I, O>(accountId: string, bucket: string, run: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => queryClient.invalidateQueries(bucketReads(accountId, bucket)) });
}

/** Every object under a folder, counted by main from the service's listing: only while everything is selected. */
export function useObjectCount(accountId: string, bucket: string, prefix: string, enabled: boolean) {
  return useServiceQuery('storage', 'countObjects', { accountId, bucket, prefix }, { enabled, staleTime: 30_000 });
}
