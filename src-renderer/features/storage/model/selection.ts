import type { BatchItem } from '@shared/contract/storage';
import { nameOf } from './kodo-address';

/**
 * What is selected in a folder: some rows by key, or every object of the folder ("select all"),
 * most of which the renderer never loads: main lists them when a batch acts on them.
 */
export type Selection = { kind: 'keys'; keys: ReadonlySet<string> } | { kind: 'all' };

export const NOTHING: Selection = { kind: 'keys', keys: new Set() };
export const EVERYTHING: Selection = { kind: 'all' };

export function isSelected(selection: Selection, key: string): boolean {
  return selection.kind === 'all' || selection.keys.has(key);
}

export function isEmpty(selection: Selection): boolean {
  return selection.kind === 'keys' && selection.keys.size === 0;
}

/**
 * One row's checkbox. Unticking a row of "everything" leaves the rows that are loaded, less that
 * one: the rest of the folder is not on screen to be shown as selected.
 */
export function toggleKey(selection: Selection, key: string, loadedKeys: () => readonly string[]): Selection {
  if (selection.kind === 'all') return { kind: 'keys', keys: new Set(loadedKeys().filter((k) => k !== key)) };
  const keys = new Set(selection.keys);
  if (keys.has(key)) keys.delete(key);
  else keys.add(key);
  return { kind: 'keys', keys };
}

/** The header checkbox: nothing selected selects everything; anything selected clears. */
export function toggleAll(selection: Selection): Selection {
  return isEmpty(selection) ? EVERYTHING : NOTHING;
}

const itemOf = (key: string): BatchItem => ({ key, folder: key.endsWith('/') });

/**
 * What a batch acts on: the folder as a whole (`allIn`), the selected keys, or the row with the
 * focus when nothing is selected.
 */
export type BatchTarget = { allIn: string } | { items: BatchItem[] };

export function targetOf(selection: Selection, prefix: string, focusedKey: string | undefined): BatchTarget {
  if (selection.kind === 'all') return { allIn: prefix };
  if (selection.keys.size > 0) return { items: [...selection.keys].map(itemOf) };
  return { items: focusedKey ? [itemOf(focusedKey)] : [] };
}

/** The folder as people read it: `photos/` or "the bucket root". */
const folderName = (prefix: string) => (prefix === '' ? 'the bucket root' : prefix);

export type ObjectCount = { state: 'counting' } | { state: 'counted'; objects: number } | { state: 'failed'; error: string };

/** The selection bar's sentence when everything is selected. */
export function everythingSentence(prefix: string, count: ObjectCount): string {
  const where = folderName(prefix);
  if (count.state === 'counting') return `All objects in ${where} are selected · counting them…`;
  if (count.state === 'failed') return `All objects in ${where} are selected (they could not be counted: ${count.error})`;
  const n = count.objects;
  if (n === 1) return `The only object in ${where} is selected, sub-folders included`;
  return `All ${n.toLocaleString('en-US')} objects in ${where} are selected, sub-folders included`;
}

/** How a dialog names what it acts on: "“a.jpg”" (its name, not its path), "3 items", "all 1,234 objects in photos/". */
export function describeTarget(target: BatchTarget, prefix: string, count: ObjectCount): string {
  if ('allIn' in target) {
    return count.state === 'counted'
      ? `all ${count.objects.toLocaleString('en-US')} ${count.objects === 1 ? 'object' : 'objects'} in ${folderName(prefix)}`
      : `all objects in ${folderName(prefix)}`;
  }
  if (target.items.length === 1) return `“${nameOf(target.items[0]!.key)}”`;
  return `${target.items.length.toLocaleString('en-US')} items`;
}
