import { CONFIG_SHORTCUTS } from '../../features/config/model/shortcuts';
import { DIRECTORY_SHORTCUTS } from '../../features/directory/model/shortcuts';
import { SHORTCUTS as LIVE_SHORTCUTS } from '../../features/live/model/shortcuts';
import { RECORDINGS_SHORTCUTS } from '../../features/recordings/model/shortcuts';
import { STORAGE_SHORTCUTS } from '../../features/storage/model/shortcuts';
import type { ShortcutGroup } from '../../ui/keyboard/shortcut';
import { SECTIONS, type SectionId } from '../sections';

/** Keys that work in every section (the shell's own). */
export const GLOBAL_SHORTCUTS: ShortcutGroup = {
  title: 'Everywhere',
  shortcuts: [
    { keys: ['?'], description: 'Show the keyboard shortcuts' },
    { keys: ['Esc'], description: 'Close a dialog, menu or panel' },
  ],
};

/**
 * Each section's own keys, declared by the section as data next to the handler that runs them.
 * A section with none has an empty list, so the dialog can say so rather than show nothing.
 */
export const SECTION_SHORTCUTS: Readonly<Record<SectionId, readonly ShortcutGroup[]>> = {
  live: [{ title: 'Tiles', shortcuts: LIVE_SHORTCUTS }],
  streams: [],
  recordings: RECORDINGS_SHORTCUTS,
  config: CONFIG_SHORTCUTS,
  storage: STORAGE_SHORTCUTS,
  directory: DIRECTORY_SHORTCUTS,
  calendar: [],
  settings: [],
  about: [],
};

/** What the shortcuts dialog lists in a section: the section's own keys, and those that work everywhere. */
export function shortcutsIn(section: SectionId): { global: ShortcutGroup; section: readonly ShortcutGroup[]; sectionTitle: string } {
  return { global: GLOBAL_SHORTCUTS, section: SECTION_SHORTCUTS[section], sectionTitle: SECTIONS[section].title };
}

/** The facts of a key press that decide whether it opens the shortcuts dialog. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** The press goes into a text field or the editor (ui/keyboard/is-typing). */
  typing: boolean;
  /** A dialog or menu is open: it owns the keyboard until it closes. */
  dialogOpen: boolean;
}

/** `?` opens the shortcuts, except while typing (a `?` in a field is text) or inside an open dialog. */
export const opensShortcuts = (press: KeyPress): boolean =>
  press.key === '?' && !press.ctrlKey && !press.metaKey && !press.altKey && !press.typing && !press.dialogOpen;
