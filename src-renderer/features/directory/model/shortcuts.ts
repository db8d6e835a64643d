import type { ShortcutGroup } from '@renderer/ui/keyboard/shortcut';

/** The directory's keys: the policy editor's save (PolicyForm's hotkey handler). */
export const DIRECTORY_SHORTCUTS: readonly ShortcutGroup[] = [
  {
    title: 'Policy editor',
    shortcuts: [{ keys: ['Mod+S'], description: 'Save the assignment policy' }],
  },
];
