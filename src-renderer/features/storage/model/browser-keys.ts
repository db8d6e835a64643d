import type { KeyboardEvent } from 'react';
import { isTyping } from '@renderer/ui/keyboard/is-typing';
import type { BrowserDialog } from './browser-dialog';
import { itemOf } from './browser-dialog';
import type { BrowserRow } from './browser-rows';
import type { BatchTarget } from './selection';

/** What the object table's keys act on (listed for the shortcuts dialog in shortcuts.ts). */
export interface TableKeyDeps {
  target: BatchTarget;
  /** The target holds no item: Delete does nothing. */
  nothing: boolean;
  selectionEmpty: boolean;
  openRow(row: BrowserRow): void;
  openDialog(next: BrowserDialog): void;
  selectAll(): void;
  clearSelection(): void;
}

/** Enter, Delete, F2, Mod+A and Escape on the object table; other keys go on to the table. */
export const tableKeyHandler = (deps: TableKeyDeps) => (event: KeyboardEvent, row: BrowserRow | undefined) => {
  if (isTyping(event.target)) return;
  if (event.key === 'Enter' && row && !(event.target instanceof HTMLButtonElement)) deps.openRow(row);
  else if (event.key === 'Delete' && !deps.nothing) deps.openDialog({ kind: 'delete', target: deps.target });
  else if (event.key === 'F2' && row) deps.openDialog({ kind: 'rename', item: itemOf(row.key) });
  else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a') {
    event.preventDefault();
    deps.selectAll();
  } else if (event.key === 'Escape' && !deps.selectionEmpty) deps.clearSelection();
  else return;
  event.preventDefault();
};

/** What the folder's keys act on: the history, the folder above, the address bar and search. */
export interface SectionKeyDeps {
  back: string | undefined;
  forward: string | undefined;
  /** The folder above, undefined at the bucket's root. */
  up: string | undefined;
  goAddress(address: string): void;
  goUp(up: string): void;
  selectAddress(): void;
  focusSearch(): void;
}

/** Alt+arrows, Backspace, Mod+L and / anywhere in the browser. */
export const sectionKeyHandler = (deps: SectionKeyDeps) => (event: KeyboardEvent) => {
  const typing = isTyping(event.target);
  if (event.altKey && event.key === 'ArrowLeft' && deps.back) deps.goAddress(deps.back);
  else if (event.altKey && event.key === 'ArrowRight' && deps.forward) deps.goAddress(deps.forward);
  else if ((event.altKey && event.key === 'ArrowUp') || (event.key === 'Backspace' && !typing)) {
    if (deps.up === undefined) return;
    deps.goUp(deps.up);
  } else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'l') deps.selectAddress();
  else if (event.key === '/' && !typing) deps.focusSearch();
  else return;
  event.preventDefault();
};
