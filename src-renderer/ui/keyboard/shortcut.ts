/**
 * One keyboard shortcut as data, declared by the section that handles it. `keys` are
 * alternatives; each is a combination such as `Mod+S`, `Alt+←` or `?` (`Mod` is Ctrl, or ⌘ on a
 * Mac). `macKeys` replaces `keys` on a Mac where the binding itself differs there.
 */
export interface Shortcut {
  keys: readonly string[];
  macKeys?: readonly string[];
  description: string;
}

/** Shortcuts that belong together (one part of a section), under a heading. */
export interface ShortcutGroup {
  title: string;
  shortcuts: readonly Shortcut[];
}

const MAC_NAMES: Record<string, string> = { Mod: '⌘', Alt: '⌥', Shift: '⇧', Ctrl: '⌃' };
const OTHER_NAMES: Record<string, string> = { Mod: 'Ctrl' };

/** Whether the keyboard is a Mac's (from navigator.platform or the user agent). */
export const isMacPlatform = (platform: string): boolean => /Mac|iPhone|iPad|iPod/i.test(platform);

/** The keys to show for a shortcut on this platform. */
export const keysOn = (shortcut: Shortcut, mac: boolean): readonly string[] => (mac && shortcut.macKeys ? shortcut.macKeys : shortcut.keys);

/** The key caps of one combination, as this platform names them: `Mod+S` is Ctrl S, or ⌘ S on a Mac. */
export function keyCaps(combo: string, mac: boolean): string[] {
  // A lone `+` is a key of its own, not a separator.
  if (combo === '+') return ['+'];
  const names = mac ? MAC_NAMES : OTHER_NAMES;
  return combo.split('+').map((part) => names[part] ?? part);
}

/** The combination as screen readers and `aria-keyshortcuts` spell it: `Control+S`, `Meta+S`. */
export function ariaKeys(combo: string, mac: boolean): string {
  const words: Record<string, string> = {
    Mod: mac ? 'Meta' : 'Control',
    Ctrl: 'Control',
    Esc: 'Escape',
    '←': 'ArrowLeft',
    '→': 'ArrowRight',
    '↑': 'ArrowUp',
    '↓': 'ArrowDown',
  };
  return combo === '+'
    ? '+'
    : combo
        .split('+')
        .map((part) => words[part] ?? part)
        .join('+');
}
