import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { DiscardConfirm } from './DiscardConfirm';

export interface DiskChangedNoticeProps {
  path: string;
  /** The file on disk is not what the engine runs. */
  notApplied: boolean;
  /** The file changed on disk while the user had unsaved edits here. */
  conflict: boolean;
  /** The editor does not show the file on disk (so Reload has something to load). */
  editorDiffers: boolean;
  /** Reloading would throw away unsaved edits: asked first. */
  dirty: boolean;
  applying: boolean;
  /** Apply is a change: not offered while main is out of reach (the page banner says why). */
  connected: boolean;
  applyError?: string;
  onApply(): void;
  onReload(): void;
  onKeepMine(): void;
}

/**
 * "The file changed on disk": someone edited it outside the console. Apply makes the engine run
 * it (as a save would); Reload puts it in the editor. Nothing happens until the user picks.
 */
export function DiskChangedNotice({
  path,
  notApplied,
  conflict,
  editorDiffers,
  dirty,
  applying,
  connected,
  applyError,
  onApply,
  onReload,
  onKeepMine,
}: DiskChangedNoticeProps) {
  const [confirming, setConfirming] = useState(false);
  if (!notApplied && !conflict) return null;
  const reload = () => {
    if (dirty) return setConfirming(true);
    onReload();
  };
  return (
    // The title in the text colour: Mantine's yellow-on-yellow title is below AA contrast.
    <Alert
      color="yellow"
      title="The file changed on disk"
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
      data-testid="changed-on-disk"
    >
      <Stack gap="xs">
        {conflict ? <Text size="sm">Another editor or console wrote {path} while you were editing it here.</Text> : null}
        {notApplied ? (
          <Text size="sm" data-testid="not-applied">
            The relay is not running this version of {path} yet. Apply reads it again and applies it as a save does: streams change at once.
          </Text>
        ) : null}
        {applyError ? (
          <Alert color="red" title="Nothing was applied" data-testid="apply-error">
            {applyError}
          </Alert>
        ) : null}
        {confirming ? (
          <DiscardConfirm
            question="Discard your unsaved changes and load the file from disk?"
            confirmLabel="Discard and reload"
            onConfirm={() => {
              setConfirming(false);
              onReload();
            }}
            onCancel={() => setConfirming(false)}
          />
        ) : (
          <Group gap="xs">
            {notApplied ? (
              <Button size="xs" onClick={onApply} loading={applying} disabled={!connected}>
                Apply
              </Button>
            ) : null}
            {editorDiffers ? (
              <Button size="xs" variant={notApplied ? 'default' : 'filled'} onClick={reload}>
                Reload from disk
              </Button>
            ) : null}
            {conflict ? (
              <Button size="xs" variant="default" onClick={onKeepMine}>
                Keep my changes
              </Button>
            ) : null}
          </Group>
        )}
      </Stack>
    </Alert>
  );
}
