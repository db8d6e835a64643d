import type { BrowserWindow, MessageBoxSyncOptions } from 'electron';

type PromptWindow = Pick<BrowserWindow, 'webContents'>;
export type ShowMessageBox = (window: PromptWindow, options: MessageBoxSyncOptions) => number;

const LEAVE = 0;

/**
 * A page with unsaved edits (a policy form) cancels `beforeunload`. A browser then asks the user
 * itself; Electron asks nothing and keeps the window open, so closing or reloading would silently
 * do nothing. Main asks instead, as the browser would, and lets the window go when the user says so.
 */
export function askBeforeDiscardingEdits(window: PromptWindow, showMessageBox: ShowMessageBox): void {
  window.webContents.on('will-prevent-unload', (event) => {
    const choice = showMessageBox(window, {
      type: 'question',
      title: 'Unsaved changes',
      message: 'Leave without saving?',
      detail: 'The changes you made on this page are not saved yet. Leaving discards them.',
      buttons: ['Leave without saving', 'Stay'],
      defaultId: 1,
      cancelId: 1,
      noLink: true,
    });
    // Electron's way to say "unload anyway" is to prevent the prevention.
    if (choice === LEAVE) event.preventDefault();
  });
}
