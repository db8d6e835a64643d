import { EmptyState } from '@renderer/ui/EmptyState';
import { LoadingLine } from '@renderer/ui/LoadingLine';
import { ResultError } from '@renderer/ui/ResultError';
import type { BrowserRows } from '../use-browser-rows';

/** Above the object table: why the folder shows nothing yet, or nothing at all. */
export function FolderNotices({ rows, bucket, prefix, search }: { rows: BrowserRows; bucket: string; prefix: string; search: string }) {
  const { sortedMode, listing, sortedTotal, count, error, index, indexNow } = rows;
  return (
    <>
      {indexNow.isError ? <ResultError error={indexNow.error} title="The folder could not be counted" /> : null}
      {error ? <ResultError error={error} title={`kodo://${bucket}/${prefix} could not be listed`} /> : null}
      {!sortedMode && listing.isPending ? <LoadingLine>Listing the folder…</LoadingLine> : null}
      {sortedMode && sortedTotal === undefined && !error ? <LoadingLine>Reading the index…</LoadingLine> : null}
      {count === 0 && ((!sortedMode && listing.isSuccess) || (sortedMode && sortedTotal === 0)) ? (
        <EmptyState testId="folder-empty">
          {search
            ? `Nothing in this folder starts with “${search}”.`
            : index.data?.state === 'running'
              ? 'Nothing indexed here yet.'
              : 'This folder is empty. Make a folder, or upload files into it.'}
        </EmptyState>
      ) : null}
    </>
  );
}
