import type { ShortcutGroup } from '@renderer/ui/keyboard/shortcut';

/** The timeline's keys (DayTimeline), while it has the focus. */
export const RECORDINGS_SHORTCUTS: readonly ShortcutGroup[] = [
  {
    title: 'Timeline',
    shortcuts: [
      { keys: ['←', '→'], description: 'Move the cursor a minute' },
      { keys: ['Shift+←', 'Shift+→'], description: 'Move the cursor ten minutes' },
      { keys: ['Home', 'End'], description: 'Cursor to the start or end of the view' },
      { keys: ['PageUp', 'PageDown'], description: 'Cursor to the previous or next recording' },
      { keys: ['Enter'], description: 'Play from the cursor' },
    ],
  },
];
