import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { LOCAL_RELAY } from '@shared/contract/relays';
import { useConnected } from '@renderer/app/use-connection';
import { useStreamActions } from '../use-stream-actions';
import { NotConnectedAlert } from './NotConnectedAlert';

/** Asks before a stream goes: it leaves the config file (its relay's, for a remote one) and its viewers are cut off. */
export function DeleteStreamDialog({
  target,
  onClose,
  onDeleted,
}: {
  target: { relay: string; name: string } | undefined;
  onClose(): void;
  onDeleted(name: string): void;
}) {
  const { remove } = useStreamActions();
  const connected = useConnected();
  const name = target?.name;
  const remote = target && target.relay !== LOCAL_RELAY ? target.relay : undefined;
  return (
    <Modal opened={Boolean(target)} onClose={onClose} title={`Delete ${name ?? ''}${remote ? ` on ${remote}` : ''}?`}>
      <Stack>
        <Text>
          {remote
            ? `The stream is removed from ${remote} through its API and everyone watching it there is disconnected. The camera itself is not touched.`
            : 'The stream is removed from the config file and everyone watching it is disconnected. The camera itself is not touched.'}
        </Text>
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
            onClick={() => target && remove.mutate(target, { onSuccess: () => onDeleted(target.name) })}
          >
            Delete stream
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
