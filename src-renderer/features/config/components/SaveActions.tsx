import { Button, Group } from '@mantine/core';
import { IconDeviceFloppy, IconRefresh } from '@tabler/icons-react';

export interface SaveActionsProps {
  /** The editor has unsaved changes (so Revert has something to undo). */
  dirty: boolean;
  /** A file was read and main is in reach: saving can be asked for. */
  canSave: boolean;
  /** Offers Save and restart (the embedded relay's file; a remote relay is not restarted from here). */
  canRestart?: boolean;
  onRevert(): void;
  onSave(restart: boolean): void;
}

/** The page header's buttons: Revert, Save… and Save and restart… (each save is confirmed in a dialog). */
export function SaveActions({ dirty, canSave, canRestart = true, onRevert, onSave }: SaveActionsProps) {
  return (
    <Group gap="sm">
      <Button variant="subtle" disabled={!dirty} onClick={onRevert}>
        Revert
      </Button>
      <Button leftSection={<IconDeviceFloppy size={16} />} onClick={() => onSave(false)} aria-keyshortcuts="Control+S" disabled={!canSave}>
        Save…
      </Button>
      {canRestart ? (
        <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => onSave(true)} disabled={!canSave}>
          Save and restart…
        </Button>
      ) : null}
    </Group>
  );
}
