import { ShortcutsDialog } from '@renderer/app/shortcuts/ShortcutsDialog';

/** The live view's Shortcuts button opens the console's one shortcuts dialog, showing Live's keys. */
export function ShortcutsOverlay({ opened, onClose }: { opened: boolean; onClose(): void }) {
  return <ShortcutsDialog opened={opened} onClose={onClose} section="live" />;
}
