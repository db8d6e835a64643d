import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useConnected } from '@renderer/app/use-connection';
import { useStreamActions } from '../use-stream-actions';
import { NotConnectedAlert } from './NotConnectedAlert';

/** Asks before a stream goes: it leaves the config file and its viewers are cut off. */
export function DeleteStreamDialog({
  name,
  onClose,
  onDeleted,
}: {
  name: string | undefined;
  onClose(): void;
  onDeleted(name: string): void;
}) {
  const { remove } = useStreamActions();
  const connected = useConnected();
  return (
    <Modal opened={Boolean(name)} onClose={onClose} title={`Delete ${name ?? ''}?`}>
      <Stack>
        <Text>The stream is removed from the config file and everyone watching it is disconnected. The camera itself is not touched.</Text>
        {!connected ? <NotConnectedAlert /> : null}
        {remove.isError ? (
          <Alert color="red" title="The stream was not deleted">
            {remove.error.message}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            disabled={!connected}
            onClick={() => name && remove.mutate({ name }, { onSuccess: () => onDeleted(name) })}
          >
            Delete stream
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
