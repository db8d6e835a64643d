import type { FetchStatus } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { EmptyState } from './EmptyState';
import { LoadingLine } from './LoadingLine';
import { ResultError } from './ResultError';

/** What this needs of a query's state: `useQuery`'s and `useInfiniteQuery`'s results both fit. */
interface QueryLike<T> {
  data: T | undefined;
  error: Error | null;
  isPending: boolean;
  fetchStatus: FetchStatus;
}

export interface QueryStateProps<T> {
  query: QueryLike<T>;
  /** What is being read, in words, while nothing is known yet: "Reading access packages…". */
  loading: string;
  /** What could not be done, over the error's own message: "The access packages could not be read". */
  errorTitle?: string;
  /** Shown instead of the content when the answer is an empty list. */
  empty?: ReactNode;
  /** The content, once there is data. */
  children?: (data: T) => ReactNode;
}

/**
 * The states of one read, the same in every view: a loading line (role status) while it is
 * first read, the error (role alert) when it failed, the empty state or the content once it
 * answered. A read that is switched off (nothing to read yet) shows nothing. After a failed
 * refresh the error stands above what was read before, which stays.
 */
export function QueryState<T>({ query, loading, errorTitle, empty, children }: QueryStateProps<T>) {
  const { data, error } = query;
  const waiting = query.isPending && query.fetchStatus !== 'idle';
  const content =
    data === undefined ? null : empty !== undefined && Array.isArray(data) && data.length === 0 ? (
      <EmptyState>{empty}</EmptyState>
    ) : (
      children?.(data)
    );
  return (
    <>
      {waiting ? <LoadingLine>{loading}</LoadingLine> : null}
      {error ? <ResultError error={error} title={errorTitle} /> : null}
      {content}
    </>
  );
}
