import { Button, Group, Text } from '@mantine/core';

export interface DiscardConfirmProps {
  /** The question, naming what replaces the edits ("…and load the file from disk?"). */
  question: string;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
}

/** "Discard your unsaved changes?" asked in place, with Cancel focused so Enter keeps the edits. */
export function DiscardConfirm({ question, confirmLabel, onConfirm, onCancel }: DiscardConfirmProps) {
  return (
    <Group gap="xs" role="group" aria-label="Discard unsaved changes?">
      <Text size="sm" fw={600}>
        {question}
      </Text>
      <Button size="xs" color="red" onClick={onConfirm}>
        {confirmLabel}
      </Button>
      <Button size="xs" variant="default" onClick={onCancel} autoFocus>
        Cancel
      </Button>
    </Group>
  );
}
