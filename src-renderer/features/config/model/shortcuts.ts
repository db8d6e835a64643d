import type { ShortcutGroup } from '@renderer/ui/keyboard/shortcut';

/**
 * The config editor's keys: its own Save (ConfigEditor) and the CodeMirror bindings it keeps
 * from basicSetup (history, search, comments, completion, lint). Tab is not bound, so it moves
 * the focus out of the editor as everywhere else.
 */
export const CONFIG_SHORTCUTS: readonly ShortcutGroup[] = [
  {
    title: 'Editor',
    shortcuts: [
      { keys: ['Mod+S'], description: 'Save the file (checks it first)' },
      { keys: ['Ctrl+Space'], description: 'Suggest keys and values from the schema' },
      { keys: ['Mod+F'], description: 'Find and replace' },
      { keys: ['Mod+Z'], description: 'Undo' },
      { keys: ['Mod+Y'], macKeys: ['Mod+Shift+Z'], description: 'Redo' },
      { keys: ['Mod+/'], description: 'Comment or uncomment the line' },
      { keys: ['Alt+↑', 'Alt+↓'], description: 'Move the line up or down' },
      { keys: ['F8'], description: 'Go to the next problem' },
      { keys: ['Mod+Shift+M'], description: 'Open the list of problems in the editor' },
      { keys: ['Tab', 'Shift+Tab'], description: 'Leave the editor (Tab moves the focus, it does not indent)' },
    ],
  },
];
