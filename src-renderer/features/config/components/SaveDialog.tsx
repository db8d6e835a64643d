import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { DiffView } from './DiffView';

export interface SaveDialogProps {
  opened: boolean;
  restart: boolean;
  /** Nothing to write: the file on disk (edited outside) is what the engine restarts with. */
  restartOnly?: boolean;
  path: string;
  onDisk: string;
  draft: string;
  saving: boolean;
  error?: string;
  onConfirm(): void;
  onClose(): void;
}

/** What the save will change in the file, shown before it is written. */
export function SaveDialog({
  opened,
  restart,
  restartOnly = false,
  path,
  onDisk,
  draft,
  saving,
  error,
  onConfirm,
  onClose,
}: SaveDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={restart ? 'Save and restart the engine' : 'Save the config file'} size="xl">
      <Stack>
        {restartOnly ? (
          <Text size="sm">
            The editor has what is on disk, but <code>{path}</code> was changed outside the console and the relay is not running it. The
            engine restarts with it: every stream reconnects and viewers see a short gap.
          </Text>
        ) : (
          <Text size="sm">
            Changes to <code>{path}</code>
            {restart ? '. The engine then restarts with it: every stream reconnects and viewers see a short gap.' : '.'}
          </Text>
        )}
        {opened && !restartOnly ? <DiffView onDisk={onDisk} draft={draft} /> : null}
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
            {restartOnly ? 'Restart' : restart ? 'Write and restart' : 'Write file'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
