import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { DiscardConfirm } from './DiscardConfirm';

export interface RemoteChangedNoticeProps {
  relay: string;
  onLoadTheirs(): void;
  onKeepMine(): void;
}

/**
 * A remote relay's config was written elsewhere while the user edited it here (a save was refused
 * over it). Load theirs drops the edits, after asking; Keep mine makes the next save go over
 * theirs, with the diff against their file shown first.
 */
export function RemoteChangedNotice({ relay, onLoadTheirs, onKeepMine }: RemoteChangedNoticeProps) {
  const [confirming, setConfirming] = useState(false);
  return (
    // The title in the text colour: Mantine's yellow-on-yellow title is below AA contrast.
    <Alert
      color="yellow"
      title={`${relay}'s config changed on the relay`}
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
      data-testid="remote-changed"
    >
      <Stack gap="xs">
        <Text size="sm">Someone wrote {relay}'s config while you were editing it here, so your save was not sent.</Text>
        {confirming ? (
          <DiscardConfirm
            question={`Discard your unsaved changes and load ${relay}'s config?`}
            confirmLabel="Discard and load"
            onConfirm={() => {
              setConfirming(false);
              onLoadTheirs();
            }}
            onCancel={() => setConfirming(false)}
          />
        ) : (
          <Group gap="xs">
            <Button size="xs" onClick={() => setConfirming(true)}>
              Load {relay}'s config
            </Button>
            <Button size="xs" variant="default" onClick={onKeepMine}>
              Keep my changes
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}
