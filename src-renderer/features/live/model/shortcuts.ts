import type { Shortcut } from '@renderer/ui/keyboard/shortcut';

/**
 * What a key does in the live view. `help` is no key's any more: `?` opens the console's
 * shortcuts dialog from every section (app/shortcuts); the view's Shortcuts button opens it too.
 */
export type ShortcutAction = 'next' | 'previous' | 'fullscreen' | 'snapshot' | 'mute' | 'help';

/** The live view's keys, listed once: the handler and the shortcuts dialog both read this table. */
export const SHORTCUTS: ReadonlyArray<Shortcut & { action: Exclude<ShortcutAction, 'help'> }> = [
  { action: 'next', keys: ['→', 'n'], description: 'Next tile' },
  { action: 'previous', keys: ['←', 'p'], description: 'Previous tile' },
  { action: 'fullscreen', keys: ['f'], description: 'Fullscreen the selected tile' },
  { action: 'snapshot', keys: ['s'], description: 'Download a snapshot of the selected tile' },
  { action: 'mute', keys: ['m'], description: 'Mute or unmute the selected tile' },
];

const BY_KEY: Record<string, ShortcutAction> = {
  ArrowRight: 'next',
  n: 'next',
  ArrowLeft: 'previous',
  p: 'previous',
  f: 'fullscreen',
  s: 'snapshot',
  m: 'mute',
};

/** The action of a key press, unless it is typed into a field or held with a modifier (browser shortcuts stay the browser's). */
export function shortcutFor(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  targetIsEditable: boolean;
}): ShortcutAction | undefined {
  if (event.ctrlKey || event.metaKey || event.altKey || event.targetIsEditable) return undefined;
  return BY_KEY[event.key];
}

/** The tile index after `next`/`previous`, wrapping around. */
export function stepSelection(index: number, count: number, action: 'next' | 'previous'): number {
  if (count === 0) return 0;
  return (index + (action === 'next' ? 1 : -1) + count) % count;
}
