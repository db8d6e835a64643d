import { Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { ResultError } from '../../ui/ResultError';
import { AddressBar } from './components/AddressBar';
import { BatchPanel } from './components/BatchPanel';
import { BrowserDialogs } from './components/BrowserDialogs';
import { BrowserToolbar } from './components/BrowserToolbar';
import { ConflictDialog } from './components/ConflictDialog';
import { FolderNotices } from './components/FolderNotices';
import { IndexBar } from './components/IndexBar';
import { ObjectDetails } from './components/ObjectDetails';
import { ObjectTable } from './components/ObjectTable';
import { SelectionBar } from './components/SelectionBar';
import { TransferStrip } from './components/TransferStrip';
import { itemOf } from './model/browser-dialog';
import { sectionKeyHandler, tableKeyHandler } from './model/browser-keys';
import type { BrowserRow } from './model/browser-rows';
import { EVERYTHING, isEmpty, NOTHING, targetOf, toggleAll, toggleKey, type ObjectCount, type Selection } from './model/selection';
import { useBrowserActions } from './use-browser-actions';
import { useBrowserRows } from './use-browser-rows';
import { useFolderNavigation } from './use-folder-navigation';
import { useBatches, useObjectCount } from './use-storage';
import { useDownloadItems, useHeldUploads, useTransfers, useUploadFiles } from './use-transfers';

/** How far the service got counting the folder's objects. */
function objectCountOf(counted: ReturnType<typeof useObjectCount>): ObjectCount {
  if (counted.isSuccess) return { state: 'counted', objects: counted.data.objects };
  return counted.isError ? { state: 'failed', error: counted.error.message } : { state: 'counting' };
}

/** One folder of a bucket: address bar, the object table, counts, and the actions on a selection. */
export function BrowserView({ accountId, bucket, prefix }: { accountId: string; bucket: string; prefix: string }) {
  const [searchText, setSearchText] = useState('');
  const [search] = useDebouncedValue(searchText.trim(), 250);
  const [selection, setSelection] = useState<Selection>(NOTHING);
  const [focusIndex, setFocusIndex] = useState(0);
  const [details, setDetails] = useState<string>();
  const addressInput = useRef<HTMLInputElement>(null);
  const searchInput = useRef<HTMLInputElement>(null);

  const { address, go, goAddress, back, forward, up } = useFolderNavigation(accountId, bucket, prefix);
  useEffect(() => {
    setSelection(NOTHING);
    setFocusIndex(0);
    setSearchText('');
  }, [address]);

  const rows = useBrowserRows(accountId, bucket, prefix, search);
  const { count, rowAt, sortedMode, listedRows, listing } = rows;

  const upload = useUploadFiles(accountId, bucket, prefix);
  const download = useDownloadItems(accountId, bucket, prefix);
  const transfers = useTransfers();
  const heldUploads = useHeldUploads();
  const bucketTransfers = useMemo(
    () => (transfers.data ?? []).filter((t) => t.accountId === accountId && t.bucket === bucket),
    [transfers.data, accountId, bucket],
  );
  // Files or folders dropped anywhere on the browser go into the folder shown.
  const drop = useDropzone({ noClick: true, noKeyboard: true, onDrop: (files) => files.length > 0 && upload.start(files) });

  const batches = useBatches();
  const actions = useBrowserActions(accountId, bucket, prefix, () => {
    setSelection(NOTHING);
    setDetails(undefined);
  });
  const { openDialog } = actions;

  // "Select all" is every object of the folder: the service counts them, the rows never load.
  const counted = useObjectCount(accountId, bucket, prefix, selection.kind === 'all');
  const objectCount = objectCountOf(counted);

  const target = targetOf(selection, prefix, rowAt(focusIndex)?.key);
  const nothing = 'items' in target && target.items.length === 0;
  const openRow = (row: BrowserRow) => (row.kind === 'folder' ? go({ bucket, prefix: row.key }) : setDetails(row.key));
  const onTableKey = tableKeyHandler({
    target,
    nothing,
    selectionEmpty: isEmpty(selection),
    openRow,
    openDialog,
    selectAll: () => setSelection(EVERYTHING),
    clearSelection: () => setSelection(NOTHING),
  });
  const onSectionKey = sectionKeyHandler({
    back,
    forward,
    up,
    goAddress,
    goUp: (folder) => go({ bucket, prefix: folder }),
    selectAddress: () => addressInput.current?.select(),
    focusSearch: () => searchInput.current?.focus(),
  });

  const single = 'items' in target && target.items.length === 1 ? target.items[0] : undefined;
  const selectedRows = selection.kind === 'keys' ? selection.keys.size : 0;

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
      <BrowserToolbar
        searchRef={searchInput}
        searchText={searchText}
        onSearchText={setSearchText}
        onFiles={(files) => upload.start(files)}
        uploading={upload.busy}
        onDownload={() => download.mutate(target)}
        downloading={download.isPending}
        target={target}
        single={single}
        selection={selection}
        onDialog={openDialog}
      />
      {upload.error ? <ResultError error={upload.error} title="The files were not queued for upload" /> : null}
      {download.isError ? <ResultError error={download.error} title="Nothing was queued for download" /> : null}
      <TransferStrip transfers={bucketTransfers} held={heldUploads} />
      <IndexBar status={rows.index.data} onIndex={rows.indexFolder} busy={rows.indexNow.isPending} />
      <FolderNotices rows={rows} bucket={bucket} prefix={prefix} search={search} />
      <SelectionBar
        prefix={prefix}
        all={selection.kind === 'all'}
        count={objectCount}
        selectedRows={selectedRows}
        onSelectAll={() => setSelection(EVERYTHING)}
        onClear={() => setSelection(NOTHING)}
      />
      {count > 0 ? (
        <ObjectTable
          count={count}
          rowAt={rowAt}
          sort={rows.sort.field}
          descending={rows.sort.descending}
          onSort={rows.onSort}
          selection={selection}
          onToggle={(key) => setSelection((s) => toggleKey(s, key, rows.loadedKeys))}
          onToggleAll={() => setSelection(toggleAll)}
          onOpen={openRow}
          onVisible={rows.onVisible}
          onKey={onTableKey}
          focusIndex={focusIndex}
          onFocusIndex={setFocusIndex}
        />
      ) : null}
      {!sortedMode && listing.hasNextPage ? (
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
      <BrowserDialogs
        dialog={actions.dialog}
        accountId={accountId}
        bucket={bucket}
        prefix={prefix}
        objectCount={objectCount}
        batch={actions.batch}
        folder={actions.folder}
        onClose={actions.closeDialog}
        onBatch={actions.runBatch}
        onCreateFolder={actions.createFolder}
      />
      <ConflictDialog question={upload.question} where={`kodo://${bucket}/${prefix}`} onAnswer={upload.answer} onCancel={upload.cancel} />
    </Stack>
  );
}
