import { Button, Group, Modal, Text } from '@mantine/core';

/** Asks once before something that cannot be undone; the service's refusal shows in place. */
export function ConfirmDialog({
  title,
  message,
  action,
  opened,
  busy,
  error,
  onCancel,
  onConfirm,
}: {
  title: string;
  message: string;
  action: string;
  opened: boolean;
  busy: boolean;
  error?: string;
  onCancel(): void;
  onConfirm(): void;
}) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered>
      <Text size="sm">{message}</Text>
      {error ? (
        <Text size="sm" c="var(--mantine-color-error)" role="alert" mt="sm">
          {error}
        </Text>
      ) : null}
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button color="red" onClick={onConfirm} loading={busy} data-autofocus>
          {action}
        </Button>
      </Group>
    </Modal>
  );
}
