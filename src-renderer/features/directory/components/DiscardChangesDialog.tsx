import { Button, Group, Modal, Text } from '@mantine/core';

/** Asked before leaving a policy with unsaved edits; Escape and closing keep editing. */
export function DiscardChangesDialog({ opened, onKeepEditing, onDiscard }: { opened: boolean; onKeepEditing(): void; onDiscard(): void }) {
  return (
    <Modal opened={opened} onClose={onKeepEditing} title="Discard unsaved changes?" centered>
      <Text size="sm">This policy has changes that are not saved. Leaving now drops them.</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onKeepEditing} data-autofocus>
          Keep editing
        </Button>
        <Button color="red" onClick={onDiscard}>
          Discard
        </Button>
      </Group>
    </Modal>
  );
}
