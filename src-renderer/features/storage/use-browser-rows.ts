import { useQueries } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
import type { SortField } from '@shared/contract/storage';
import { useServiceMutation } from '../../api/use-service-query';
import { needsIndex, rowFromEntry, rowsFromListing, type BrowserRow } from './model/browser-rows';
import { SORTED_PAGE, useFolderListing, useIndexStatus, useSortedPages } from './use-storage';

/**
 * The rows of one folder as the browser shows them: from the service's listing in key order, or
 * from the index in any order once the folder is indexed (or a sort needs it). `rowAt(i)` is
 * undefined while the row's page loads; `onVisible` says which rows are on screen, so only their
 * pages load.
 */
export function useBrowserRows(accountId: string, bucket: string, prefix: string, search: string) {
  const [sort, setSort] = useState<{ field: SortField; descending: boolean }>({ field: 'name', descending: false });
  const [visible, setVisible] = useState<[number, number]>([0, 0]);

  const index = useIndexStatus(accountId, bucket, prefix);
  const sortedMode = needsIndex(sort.field, sort.descending) || index.data?.state === 'complete';
  const listing = useFolderListing(accountId, bucket, prefix, search, !sortedMode);
  const listedRows = useMemo(() => rowsFromListing(listing.data?.pages ?? [], prefix), [listing.data, prefix]);
  const sorted = useSortedPages(accountId, bucket, prefix, search, sort.field, sort.descending, index.data);
  const pageNumbers = useMemo(() => {
    const firstPage = Math.floor(visible[0] / SORTED_PAGE);
    const lastPage = Math.floor(visible[1] / SORTED_PAGE);
    return Array.from({ length: lastPage - firstPage + 1 }, (_, i) => firstPage + i);
  }, [visible]);
  const pages = useQueries({ queries: sortedMode ? pageNumbers.map((n) => sorted.page(n)) : [] });
  // The row count outlives the pages in view: while the page at a jump target loads, the
  // table keeps its size instead of collapsing to nothing.
  const lastTotal = useRef<{ key: string; total: number }>(undefined);
  const loadedTotal = pages.find((p) => p.data)?.data?.total;
  if (loadedTotal !== undefined) lastTotal.current = { key: sorted.view, total: loadedTotal };
  const sortedTotal = loadedTotal ?? (lastTotal.current?.key === sorted.view ? lastTotal.current.total : undefined);

  const count = sortedMode ? (sortedTotal ?? 0) : listedRows.length;
  const rowAt = useCallback(
    (i: number): BrowserRow | undefined => {
      if (!sortedMode) return listedRows[i];
      const page = pages[pageNumbers.indexOf(Math.floor(i / SORTED_PAGE))]?.data;
      if (!page || page.offset !== Math.floor(i / SORTED_PAGE) * SORTED_PAGE) return undefined;
      const entry = page.entries[i - page.offset];
      return entry ? rowFromEntry(entry) : undefined;
    },
    [sortedMode, listedRows, pages, pageNumbers],
  );

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = listing;
  const onVisible = useCallback(
    (first: number, last: number) => {
      setVisible((previous) => (previous[0] === first && previous[1] === last ? previous : [first, last]));
      // The next page of the listing comes before the user reaches the end of what is loaded.
      if (!sortedMode && hasNextPage && !isFetchingNextPage && last >= listedRows.length - 200) void fetchNextPage();
    },
    [sortedMode, hasNextPage, isFetchingNextPage, fetchNextPage, listedRows.length],
  );

  // Starting a listing changes nothing in the bucket: its progress arrives through onIndex.
  const indexNow = useServiceMutation('storage', 'indexFolder');
  const indexFolder = () => indexNow.mutate({ accountId, bucket, prefix });
  const onSort = (field: SortField) => {
    const descending = sort.field === field ? !sort.descending : field === 'size' || field === 'time';
    setSort({ field, descending });
    // Sorting by anything Kodo cannot list in order needs the folder in the index.
    if (needsIndex(field, descending) && (index.data?.state ?? 'none') === 'none') indexFolder();
  };

  /** Every key whose row is loaded: what stays selected when one row of "everything" is unticked. */
  const loadedKeys = () => Array.from({ length: count }, (_, i) => rowAt(i)?.key).filter((k): k is string => Boolean(k));
  const error = (sortedMode ? pages.find((p) => p.isError)?.error : listing.error) ?? null;

  return {
    sort,
    onSort,
    index,
    indexNow,
    indexFolder,
    sortedMode,
    listing,
    listedRows,
    sortedTotal,
    count,
    rowAt,
    onVisible,
    loadedKeys,
    error,
  };
}

export type BrowserRows = ReturnType<typeof useBrowserRows>;
