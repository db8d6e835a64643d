import { Button, Group, Modal, Text } from '@mantine/core';

interface DiscardDraftDialogProps {
  /** The relay whose config would open instead, or undefined when nothing is asked. */
  next?: string;
  onKeepEditing(): void;
  onDiscard(): void;
}

/** Asked before the relay picker drops unsaved edits for another relay's file; Escape and closing keep editing. */
export function DiscardDraftDialog({ next, onKeepEditing, onDiscard }: DiscardDraftDialogProps) {
  return (
    <Modal opened={next !== undefined} onClose={onKeepEditing} title="Discard unsaved changes?" centered>
      <Text size="sm">
        The editor has changes that are not saved. Opening {next === undefined ? 'another' : `${next}'s`} config drops them.
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onKeepEditing} data-autofocus>
          Keep editing
        </Button>
        <Button color="red" onClick={onDiscard}>
          Discard and switch
        </Button>
      </Group>
    </Modal>
  );
}
