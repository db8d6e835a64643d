import type { BatchItem, BatchRequest } from '../../../../src-shared/contract/storage';

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
export function destinationOf(request: BatchRequest, item: BatchItem, key: string): PlannedKey {
  switch (request.kind) {
    case 'delete':
      return { key };
    case 'rename': {
      const renamed = containerOf(item.key) + request.newName + (item.folder ? '/' : '');
      return { key, toBucket: request.bucket, toKey: renamed + key.slice(item.key.length) };
    }
    default:
      return { key, toBucket: request.toBucket, toKey: request.toPrefix + key.slice(containerOf(item.key).length) };
  }
}

/** Requests that would lose or loop data, refused before anything is sent. */
export function planProblem(request: BatchRequest): string | undefined {
  const items = request.kind === 'rename' ? [request.item] : request.items;
  for (const item of items) {
    if (item.folder !== item.key.endsWith('/')) return `${item.key}: a folder key ends with / and a file key does not`;
    if (request.kind === 'move' || request.kind === 'copy') {
      if (request.toBucket !== request.bucket) continue;
      if (containerOf(item.key) === request.toPrefix) return `${item.key} is already in ${request.toPrefix || 'the bucket root'}`;
      if (item.folder && request.toPrefix.startsWith(item.key)) return `${item.key} cannot go into a folder inside itself`;
    }
    if (request.kind === 'rename' && containerOf(item.key) + request.newName + (item.folder ? '/' : '') === item.key) return 'the new name is the same as the old one';
  }
  return undefined;
}

/** "Delete 3 items from photos" / "Move 2 items to archive/2024/" / "Rename a/b/ to c". */
export function titleOf(request: BatchRequest): string {
  const count = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'item' : 'items'}`;
  switch (request.kind) {
    case 'delete':
      return `Delete ${count(request.items.length)} from ${request.bucket}`;
    case 'rename':
      return `Rename ${request.item.key} to ${request.newName}`;
    default:
      return `${request.kind === 'move' ? 'Move' : 'Copy'} ${count(request.items.length)} to ${request.toBucket}/${request.toPrefix}`;
  }
}
