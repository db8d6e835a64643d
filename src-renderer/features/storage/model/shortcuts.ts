import type { ShortcutGroup } from '@renderer/ui/keyboard/shortcut';

/**
 * The keys of the bucket browser, as BrowserView, ObjectTable and AddressBar handle them: listed
 * here for the shortcuts dialog (a change to a handler changes this list with it).
 */
export const STORAGE_SHORTCUTS: readonly ShortcutGroup[] = [
  {
    title: 'Folders in a bucket',
    shortcuts: [
      { keys: ['Alt+←'], description: 'Back to the previous folder' },
      { keys: ['Alt+→'], description: 'Forward again' },
      { keys: ['Alt+↑', 'Backspace'], description: 'Up one folder' },
      { keys: ['Mod+L'], description: 'Select the address bar' },
      { keys: ['/'], description: 'Search this folder by name prefix' },
    ],
  },
  {
    title: 'Object list',
    shortcuts: [
      { keys: ['↑', '↓'], description: 'Previous or next row' },
      { keys: ['PageUp', 'PageDown'], description: 'A page up or down' },
      { keys: ['Home', 'End'], description: 'First or last row' },
      { keys: ['Enter'], description: 'Open the folder or show the object' },
      { keys: ['Space'], description: 'Select or unselect the row' },
      { keys: ['Mod+A'], description: 'Select every loaded row' },
      { keys: ['Delete'], description: 'Delete the selected objects (asks first)' },
      { keys: ['F2'], description: 'Rename the object' },
    ],
  },
  {
    title: 'Address bar',
    shortcuts: [
      { keys: ['Enter'], description: 'Go to the kodo:// address typed' },
      { keys: ['Esc'], description: 'Put back the address of the folder shown' },
    ],
  },
];
