import { Button, Checkbox, Group, Modal, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { ConflictChoice } from '@shared/contract/transfers';
import type { ConflictQuestion } from '../use-transfers';

/**
 * "This name is taken": overwrite, skip, or keep both (the upload takes "name (1).ext"), asked
 * once per conflict or once for every conflict left in the batch.
 */
export function ConflictDialog({
  question,
  where,
  onAnswer,
  onCancel,
}: {
  question: ConflictQuestion | undefined;
  where: string;
  onAnswer(choice: ConflictChoice, applyToAll: boolean): void;
  onCancel(): void;
}) {
  const [applyToAll, setApplyToAll] = useState(false);
  // A new batch starts unticked; the answer to one conflict never silently covers the next batch.
  const total = question?.total;
  useEffect(() => setApplyToAll(false), [total]);
  const answer = (choice: ConflictChoice) => onAnswer(choice, applyToAll);
  return (
    <Modal opened={Boolean(question)} onClose={onCancel} title="A file with this name is already there" centered size="lg">
      {question ? (
        <>
          <Text size="sm">
            <strong>{question.path}</strong> already exists in {where}.
          </Text>
          {question.total > 1 ? (
            <Text size="sm" c="dimmed" mt={4} data-testid="conflict-progress">
              Conflict {question.total - question.left + 1} of {question.total}
            </Text>
          ) : null}
          <Text size="sm" mt="sm">
            Overwrite replaces the stored object, Skip leaves it and does not upload this file, Keep both uploads this file under the first
            free name like “name (1).ext”.
          </Text>
          {question.left > 1 ? (
            <Checkbox
              mt="md"
              label={`Apply to all ${question.left.toLocaleString('en-US')} conflicts left`}
              checked={applyToAll}
              onChange={(event) => setApplyToAll(event.currentTarget.checked)}
            />
          ) : null}
          <Group justify="space-between" mt="lg">
            <Button variant="subtle" color="gray" onClick={onCancel}>
              Cancel upload
            </Button>
            <Group gap="xs">
              <Button variant="default" onClick={() => answer('skip')}>
                Skip
              </Button>
              <Button variant="default" onClick={() => answer('keep-both')} data-autofocus>
                Keep both
              </Button>
              <Button color="red" onClick={() => answer('overwrite')}>
                Overwrite
              </Button>
            </Group>
          </Group>
        </>
      ) : null}
    </Modal>
  );
}
