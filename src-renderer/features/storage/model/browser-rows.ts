import type { FolderEntry, ListPage, StorageClass } from '@shared/contract/storage';
import { nameOf } from './kodo-address';

/** One row of the object table: a folder (totals when the index knows them) or a file. */
export type BrowserRow =
  | { kind: 'folder'; key: string; name: string; files?: number; bytes?: number; putTime?: number }
  | { kind: 'file'; key: string; name: string; size: number; mimeType: string; storageClass: StorageClass; putTime: number; hash: string };

/**
 * Rows from the service's listing pages, in the order a file manager shows them: folders first,
 * then files, each in key order. A folder marker (`a/` inside `a/`) is not a row.
 */
export function rowsFromListing(pages: readonly ListPage[], prefix: string): BrowserRow[] {
  const folders = new Set<string>();
  const files: BrowserRow[] = [];
  for (const page of pages) {
    for (const folder of page.folders) folders.add(folder);
    for (const o of page.objects) {
      if (o.key === prefix) continue;
      files.push({
        kind: 'file',
        key: o.key,
        name: nameOf(o.key),
        size: o.size,
        mimeType: o.mimeType,
        storageClass: o.storageClass,
        putTime: o.putTime,
        hash: o.hash,
      });
    }
  }
  const folderRows: BrowserRow[] = [...folders].sort().map((key) => ({ kind: 'folder', key, name: nameOf(key) }));
  return [...folderRows, ...files];
}

export function rowFromEntry(entry: FolderEntry): BrowserRow {
  if (entry.kind === 'folder')
    return { kind: 'folder', key: entry.key, name: nameOf(entry.key), files: entry.files, bytes: entry.bytes, putTime: entry.putTime };
  return {
    kind: 'file',
    key: entry.key,
    name: nameOf(entry.key),
    size: entry.size,
    mimeType: entry.mimeType,
    storageClass: entry.storageClass,
    putTime: entry.putTime,
    hash: entry.hash,
  };
}

/** Whether a sort needs the local index: the service lists by name, ascending, only. */
export const needsIndex = (sort: string, descending: boolean): boolean => sort !== 'name' || descending;
