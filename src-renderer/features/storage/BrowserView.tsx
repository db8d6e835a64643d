import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowsMove, IconArrowsTransferUpDown, IconCopy, IconDownload, IconFolderPlus, IconPencil, IconSearch, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueries } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useDropzone } from 'react-dropzone';
import { unwrap } from '../../../src-shared/contract/result';
import type { BatchItem, BatchRequest, SortField } from '../../../src-shared/contract/storage';
import { useApi } from '../../api/api-context';
import { printRoute } from '../../app/routes';
import { useUi } from '../../app/ui-store-context';
import { LoadingLine } from '../../ui/LoadingLine';
import { ResultError } from '../../ui/ResultError';
import { AddressBar } from './components/AddressBar';
import { BatchPanel } from './components/BatchPanel';
import { ConflictDialog } from './components/ConflictDialog';
import { DeleteDialog } from './components/DeleteDialog';
import { IndexBar } from './components/IndexBar';
import { MoveDialog } from './components/MoveDialog';
import { NameDialog } from './components/NameDialog';
import { ObjectDetails } from './components/ObjectDetails';
import { ObjectTable } from './components/ObjectTable';
import { SelectionBar } from './components/SelectionBar';
import { TransferStrip } from './components/TransferStrip';
import { UploadMenu } from './components/UploadMenu';
import { needsIndex, rowFromEntry, rowsFromListing, type BrowserRow } from './model/browser-rows';
import { isTyping } from '../../ui/keyboard/is-typing';
import { backOf, emptyHistory, forwardOf, visit } from './model/folder-history';
import { nameOf, parentFolder, parseAddress, printAddress, type FolderLocation } from './model/kodo-address';
import { describeTarget, EVERYTHING, isEmpty, NOTHING, targetOf, toggleAll, toggleKey, type BatchTarget, type ObjectCount, type Selection } from './model/selection';
import { SORTED_PAGE, useBatches, useBuckets, useBucketMutation, useFolderListing, useIndexStatus, useObjectCount, useSortedPages } from './use-storage';
import { useDownloadItems, useHeldUploads, useTransfers, useUploadFiles } from './use-transfers';

type Dialog =
  | { kind: 'delete'; target: BatchTarget }
  | { kind: 'rename'; item: BatchItem }
  | { kind: 'move' | 'copy'; target: BatchTarget }
  | { kind: 'folder' }
  | undefined;

const itemOf = (key: string): BatchItem => ({ key, folder: key.endsWith('/') });
const NAME_PROBLEM = (name: string) => (name === '' ? 'type a name' : name.includes('/') ? 'a name cannot contain /' : name.length > 1024 ? 'at most 1024 characters' : undefined);

/** One folder of a bucket: address bar, the object table, counts, and the actions on a selection. */
export function BrowserView({ accountId, bucket, prefix }: { accountId: string; bucket: string; prefix: string }) {
  const api = useApi();
  const navigate = useUi((s) => s.navigate);
  const [sort, setSort] = useState<{ field: SortField; descending: boolean }>({ field: 'name', descending: false });
  const [searchText, setSearchText] = useState('');
  const [search] = useDebouncedValue(searchText.trim(), 250);
  const [selection, setSelection] = useState<Selection>(NOTHING);
  const [focusIndex, setFocusIndex] = useState(0);
  const [visible, setVisible] = useState<[number, number]>([0, 0]);
  const [dialog, setDialog] = useState<Dialog>();
  const [details, setDetails] = useState<string>();
  const [history, setHistory] = useState(emptyHistory);
  const address = printAddress({ bucket, prefix });
  const addressInput = useRef<HTMLInputElement>(null);
  const searchInput = useRef<HTMLInputElement>(null);

  const go = useCallback((location: FolderLocation) => navigate({ section: 'storage', account: accountId, bucket: location.bucket, prefix: location.prefix }), [navigate, accountId]);
  /** History holds printed addresses; they parse back to the folder they name. */
  const goAddress = (text: string) => {
    const location = parseAddress(text);
    if (!('error' in location)) go(location);
  };
  useEffect(() => setHistory((h) => visit(h, address)), [address]);
  useEffect(() => {
    setSelection(NOTHING);
    setFocusIndex(0);
    setSearchText('');
  }, [address]);

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
  const sortedKey = JSON.stringify(sorted.queryKey);
  const loadedTotal = pages.find((p) => p.data)?.data?.total;
  if (loadedTotal !== undefined) lastTotal.current = { key: sortedKey, total: loadedTotal };
  const sortedTotal = loadedTotal ?? (lastTotal.current?.key === sortedKey ? lastTotal.current.total : undefined);

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
  const indexNow = useMutation({ mutationFn: async () => unwrap(await api.storage.indexFolder({ accountId, bucket, prefix })) });
  const onSort = (field: SortField) => {
    const descending = sort.field === field ? !sort.descending : field === 'size' || field === 'time';
    setSort({ field, descending });
    // Sorting by anything Kodo cannot list in order needs the folder in the index.
    if (needsIndex(field, descending) && (index.data?.state ?? 'none') === 'none') indexNow.mutate(undefined);
  };

  const upload = useUploadFiles(accountId, bucket, prefix);
  const download = useDownloadItems(accountId, bucket, prefix);
  const transfers = useTransfers();
  const heldUploads = useHeldUploads();
  const bucketTransfers = useMemo(() => (transfers.data ?? []).filter((t) => t.accountId === accountId && t.bucket === bucket), [transfers.data, accountId, bucket]);
  // Files or folders dropped anywhere on the browser go into the folder shown.
  const drop = useDropzone({ noClick: true, noKeyboard: true, onDrop: (files) => files.length > 0 && upload.start(files) });

  const batches = useBatches();
  const buckets = useBuckets(accountId);
  const startBatch = useBucketMutation(accountId, bucket, async (request: BatchRequest) => unwrap(await api.storage.startBatch(request)));
  const createFolder = useBucketMutation(accountId, bucket, async (name: string) => unwrap(await api.storage.createFolder({ accountId, bucket, prefix: `${prefix}${name}/` })));
  const runBatch = (request: BatchRequest) =>
    startBatch.mutate(request, {
      onSuccess: () => {
        setDialog(undefined);
        setSelection(NOTHING);
        setDetails(undefined);
      },
    });

  /** Every key whose row is loaded: what stays selected when one row of "everything" is unticked. */
  const loadedKeys = () => Array.from({ length: count }, (_, i) => rowAt(i)?.key).filter((k): k is string => Boolean(k));
  // "Select all" is every object of the folder: the service counts them, the rows never load.
  const counted = useObjectCount(accountId, bucket, prefix, selection.kind === 'all');
  const objectCount: ObjectCount = counted.isSuccess ? { state: 'counted', objects: counted.data.objects } : counted.isError ? { state: 'failed', error: counted.error.message } : { state: 'counting' };

  /** A dialog opens clean: the last refusal belongs to the last dialog. */
  const openDialog = (next: Dialog) => {
    startBatch.reset();
    createFolder.reset();
    setDialog(next);
  };

  const target = targetOf(selection, prefix, rowAt(focusIndex)?.key);
  const nothing = 'items' in target && target.items.length === 0;
  const openRow = (row: BrowserRow) => (row.kind === 'folder' ? go({ bucket, prefix: row.key }) : setDetails(row.key));
  const up = parentFolder(prefix);
  const back = backOf(history);
  const forward = forwardOf(history);

  const onTableKey = (event: KeyboardEvent, row: BrowserRow | undefined) => {
    if (isTyping(event.target)) return;
    if (event.key === 'Enter' && row && !(event.target instanceof HTMLButtonElement)) openRow(row);
    else if (event.key === 'Delete' && !nothing) openDialog({ kind: 'delete', target });
    else if (event.key === 'F2' && row) openDialog({ kind: 'rename', item: itemOf(row.key) });
    else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a') {
      event.preventDefault();
      setSelection(EVERYTHING);
    } else if (event.key === 'Escape' && !isEmpty(selection)) setSelection(NOTHING);
    else return;
    event.preventDefault();
  };

  const onSectionKey = (event: KeyboardEvent) => {
    const typing = isTyping(event.target);
    if (event.altKey && event.key === 'ArrowLeft' && back) goAddress(back);
    else if (event.altKey && event.key === 'ArrowRight' && forward) goAddress(forward);
    else if ((event.altKey && event.key === 'ArrowUp') || (event.key === 'Backspace' && !typing)) {
      if (up === undefined) return;
      go({ bucket, prefix: up });
    } else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'l') addressInput.current?.select();
    else if (event.key === '/' && !typing) searchInput.current?.focus();
    else return;
    event.preventDefault();
  };

  const single = 'items' in target && target.items.length === 1 ? target.items[0] : undefined;
  const selectedRows = selection.kind === 'keys' ? selection.keys.size : 0;
  const bucketNames = (buckets.data ?? []).map((b) => b.name);
  const error = (sortedMode ? pages.find((p) => p.isError)?.error : listing.error) ?? null;

  return (
    <Stack gap="sm" onKeyDown={onSectionKey} className="browser" data-testid="storage-browser" {...drop.getRootProps()}>
      <input {...drop.getInputProps()} aria-label="Files dropped on the folder" />
      {drop.isDragActive ? (
        <div className="drop-overlay" aria-hidden>
          Drop to upload into kodo://{bucket}/{prefix}
        </div>
      ) : null}
      <AddressBar
        location={{ bucket, prefix }}
        onGo={go}
        inputRef={addressInput}
        onBack={back ? () => goAddress(back) : undefined}
        onForward={forward ? () => goAddress(forward) : undefined}
        onUp={up !== undefined ? () => go({ bucket, prefix: up }) : undefined}
      />
      <Group gap="xs" justify="space-between">
        <TextInput
          ref={searchInput}
          aria-label="Search this folder by name prefix"
          placeholder="Names starting with… (/)"
          leftSection={<IconSearch size={16} />}
          value={searchText}
          onChange={(event) => setSearchText(event.currentTarget.value)}
          w={280}
        />
        <Group gap={6}>
          <UploadMenu onFiles={(files) => upload.start(files)} busy={upload.busy} />
          <Button size="xs" variant="default" leftSection={<IconDownload size={16} />} disabled={nothing} loading={download.isPending} onClick={() => download.mutate(target)}>
            Download
          </Button>
          <Button size="xs" variant="default" leftSection={<IconFolderPlus size={16} />} onClick={() => openDialog({ kind: 'folder' })}>
            New folder
          </Button>
          <Button size="xs" variant="default" leftSection={<IconPencil size={16} />} disabled={!single} onClick={() => single && openDialog({ kind: 'rename', item: single })}>
            Rename
          </Button>
          <Button size="xs" variant="default" leftSection={<IconArrowsMove size={16} />} disabled={nothing} onClick={() => openDialog({ kind: 'move', target })}>
            Move
          </Button>
          <Button size="xs" variant="default" leftSection={<IconCopy size={16} />} disabled={nothing} onClick={() => openDialog({ kind: 'copy', target })}>
            Copy
          </Button>
          <Button size="xs" variant="default" color="red" leftSection={<IconTrash size={16} />} disabled={nothing} onClick={() => openDialog({ kind: 'delete', target })}>
            {selection.kind === 'all' ? 'Delete all' : `Delete${selectedRows > 1 ? ` ${selectedRows}` : ''}`}
          </Button>
          <Button component="a" href={printRoute({ section: 'transfers' })} size="xs" variant="default" leftSection={<IconArrowsTransferUpDown size={16} />}>
            Transfers
          </Button>
        </Group>
      </Group>
      {upload.error ? <ResultError error={upload.error} title="The files were not queued for upload" /> : null}
      {download.isError ? <ResultError error={download.error} title="Nothing was queued for download" /> : null}
      <TransferStrip transfers={bucketTransfers} held={heldUploads} />
      <IndexBar status={index.data} onIndex={() => indexNow.mutate(undefined)} busy={indexNow.isPending} />
      {indexNow.isError ? <ResultError error={indexNow.error} title="The folder could not be counted" /> : null}
      {error ? <ResultError error={error} title={`kodo://${bucket}/${prefix} could not be listed`} /> : null}
      {!sortedMode && listing.isPending ? <LoadingLine>Listing the folder…</LoadingLine> : null}
      {sortedMode && sortedTotal === undefined && !error ? <LoadingLine>Reading the index…</LoadingLine> : null}
      {count === 0 && ((!sortedMode && listing.isSuccess) || (sortedMode && sortedTotal === 0)) ? (
        <Alert color="gray" data-testid="folder-empty">
          {search ? `Nothing in this folder starts with “${search}”.` : index.data?.state === 'running' ? 'Nothing indexed here yet.' : 'This folder is empty. Make a folder, or upload files into it.'}
        </Alert>
      ) : null}
      <SelectionBar prefix={prefix} all={selection.kind === 'all'} count={objectCount} selectedRows={selectedRows} onSelectAll={() => setSelection(EVERYTHING)} onClear={() => setSelection(NOTHING)} />
      {count > 0 ? (
        <ObjectTable
          count={count}
          rowAt={rowAt}
          sort={sort.field}
          descending={sort.descending}
          onSort={onSort}
          selection={selection}
          onToggle={(key) => setSelection((s) => toggleKey(s, key, loadedKeys))}
          onToggleAll={() => setSelection(toggleAll)}
          onOpen={openRow}
          onVisible={onVisible}
          onKey={onTableKey}
          focusIndex={focusIndex}
          onFocusIndex={setFocusIndex}
        />
      ) : null}
      {!sortedMode && hasNextPage ? (
        <Text size="xs" c="dimmed">
          {listedRows.length.toLocaleString('en-US')} rows loaded; more load as you scroll.
        </Text>
      ) : null}
      <BatchPanel batches={(batches.data ?? []).filter((b) => b.accountId === accountId)} />

      <ObjectDetails
        accountId={accountId}
        bucket={bucket}
        objectKey={details}
        onClose={() => setDetails(undefined)}
        onRename={(key) => openDialog({ kind: 'rename', item: itemOf(key) })}
        onDelete={(key) => openDialog({ kind: 'delete', target: { items: [itemOf(key)] } })}
        onOpen={(key) => {
          // The result may sit in another folder: go there, with its details open.
          const folder = key.slice(0, key.lastIndexOf('/') + 1);
          if (folder !== prefix) go({ bucket, prefix: folder });
          setDetails(key);
        }}
      />
      <DeleteDialog
        target={dialog?.kind === 'delete' ? dialog.target : undefined}
        what={dialog?.kind === 'delete' ? describeTarget(dialog.target, prefix, objectCount) : ''}
        bucket={bucket}
        busy={startBatch.isPending}
        error={startBatch.error?.message}
        onCancel={() => setDialog(undefined)}
        onConfirm={() => dialog?.kind === 'delete' && runBatch({ kind: 'delete', accountId, bucket, ...dialog.target })}
      />
      <NameDialog
        opened={dialog?.kind === 'rename'}
        title={dialog?.kind === 'rename' ? `Rename ${dialog.item.folder ? 'folder' : 'file'}` : ''}
        label="New name"
        initial={dialog?.kind === 'rename' ? nameOf(dialog.item.key) : ''}
        submitLabel="Rename"
        withOverwrite
        validate={NAME_PROBLEM}
        busy={startBatch.isPending}
        error={startBatch.error?.message}
        onCancel={() => setDialog(undefined)}
        onSubmit={(newName, overwrite) => dialog?.kind === 'rename' && runBatch({ kind: 'rename', accountId, bucket, item: dialog.item, newName, overwrite })}
      />
      <NameDialog
        opened={dialog?.kind === 'folder'}
        title={`New folder in kodo://${bucket}/${prefix}`}
        label="Folder name"
        initial=""
        submitLabel="Create folder"
        validate={NAME_PROBLEM}
        busy={createFolder.isPending}
        error={createFolder.error?.message}
        onCancel={() => setDialog(undefined)}
        onSubmit={(name) => createFolder.mutate(name, { onSuccess: () => setDialog(undefined) })}
      />
      <ConflictDialog question={upload.question} where={`kodo://${bucket}/${prefix}`} onAnswer={upload.answer} onCancel={upload.cancel} />
      <MoveDialog
        kind={dialog?.kind === 'move' || dialog?.kind === 'copy' ? dialog.kind : undefined}
        what={dialog?.kind === 'move' || dialog?.kind === 'copy' ? describeTarget(dialog.target, prefix, objectCount) : ''}
        bucket={bucket}
        prefix={prefix}
        buckets={bucketNames.length > 0 ? bucketNames : [bucket]}
        busy={startBatch.isPending}
        error={startBatch.error?.message}
        onCancel={() => setDialog(undefined)}
        onSubmit={(place) => (dialog?.kind === 'move' || dialog?.kind === 'copy') && runBatch({ kind: dialog.kind, accountId, bucket, ...dialog.target, ...place })}
      />
    </Stack>
  );
}
