import type { BatchItem, BatchRequest } from '@shared/contract/storage';
import { wholeNumber } from '@shared/format/whole-number';

/** What a batch walks: a chosen file or folder, or (`contents`) everything inside a folder. */
export interface PlannedItem extends BatchItem {
  /** "Select all" of a folder: its keys keep their path below it, the folder itself is not moved. */
  contents?: boolean;
}

/** The items of a request: those chosen, or the folder whose every key was selected. */
export function itemsOf(request: BatchRequest): PlannedItem[] {
  if (request.kind === 'rename') return [request.item];
  return request.allIn !== undefined ? [{ key: request.allIn, folder: true, contents: true }] : (request.items ?? []);
}

/** What one key of a batch becomes: deleted, or moved/copied to `toKey` in `toBucket`. */
export interface PlannedKey {
  key: string;
  toBucket?: string;
  toKey?: string;
}

/** The folder an item sits in: `a/b/` (a folder) and `a/f.txt` both sit in `a/`. */
export function containerOf(itemKey: string): string {
  const trimmed = itemKey.endsWith('/') ? itemKey.slice(0, -1) : itemKey;
  return trimmed.slice(0, trimmed.lastIndexOf('/') + 1);
}

/** Where each key under an item lands: the item keeps its name inside the target folder, or takes the new name. */
export function destinationOf(request: BatchRequest, item: PlannedItem, key: string): PlannedKey {
  switch (request.kind) {
    case 'delete':
      return { key };
    case 'rename': {
      const renamed = containerOf(item.key) + request.newName + (item.folder ? '/' : '');
      return { key, toBucket: request.bucket, toKey: renamed + key.slice(item.key.length) };
    }
    default:
      return {
        key,
        toBucket: request.toBucket,
        toKey: request.toPrefix + key.slice((item.contents ? item.key : containerOf(item.key)).length),
      };
  }
}

/** Requests that would lose or loop data, refused before anything is sent. */
export function planProblem(request: BatchRequest): string | undefined {
  for (const item of itemsOf(request)) {
    if (!item.contents && item.folder !== item.key.endsWith('/')) return `${item.key}: a folder key ends with / and a file key does not`;
    if (request.kind === 'move' || request.kind === 'copy') {
      if (request.toBucket !== request.bucket) continue;
      const from = item.contents ? item.key : containerOf(item.key);
      if (from === request.toPrefix)
        return `${item.contents ? 'everything selected' : item.key} is already in ${request.toPrefix || 'the bucket root'}`;
      if (item.folder && request.toPrefix.startsWith(item.key)) return `${item.key} cannot go into a folder inside itself`;
    }
    if (request.kind === 'rename' && containerOf(item.key) + request.newName + (item.folder ? '/' : '') === item.key)
      return 'the new name is the same as the old one';
  }
  return undefined;
}

/** "Delete 3 items from photos" / "Delete everything in raw/ from photos" / "Move 2 items to archive/2024/" / "Rename a/b/ to c". */
export function titleOf(request: BatchRequest): string {
  const count = (n: number) => `${wholeNumber(n)} ${n === 1 ? 'item' : 'items'}`;
  if (request.kind === 'rename') return `Rename ${request.item.key} to ${request.newName}`;
  // The number of keys under a selected folder is known only once main has listed them.
  const what = request.allIn !== undefined ? `everything in ${request.allIn || 'the bucket root'}` : count(request.items?.length ?? 0);
  switch (request.kind) {
    case 'delete':
      return `Delete ${what} from ${request.bucket}`;
    default:
      return `${request.kind === 'move' ? 'Move' : 'Copy'} ${what} to ${request.toBucket}/${request.toPrefix}`;
  }
}
