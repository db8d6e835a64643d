import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { DiffView } from './DiffView';

export interface SaveDialogProps {
  opened: boolean;
  restart: boolean;
  path: string;
  onDisk: string;
  draft: string;
  saving: boolean;
  error?: string;
  onConfirm(): void;
  onClose(): void;
}

/** What the save will change in the file, shown before it is written. */
export function SaveDialog({ opened, restart, path, onDisk, draft, saving, error, onConfirm, onClose }: SaveDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={restart ? 'Save and restart the engine' : 'Save the config file'} size="xl">
      <Stack>
        <Text size="sm">
          Changes to <code>{path}</code>
          {restart ? '. The engine then restarts with it: every stream reconnects and viewers see a short gap.' : '.'}
        </Text>
        {opened ? <DiffView onDisk={onDisk} draft={draft} /> : null}
        {error ? (
          <Alert color="red" title="The file was not written">
            {error}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={onConfirm} loading={saving} data-autofocus>
            {restart ? 'Write and restart' : 'Write file'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
