import { Button, Group, Text } from '@mantine/core';
import { IconCopy, IconDeviceFloppy, IconTrash } from '@tabler/icons-react';
import { printRoute } from '@renderer/app/routes';

export interface PolicySaveBarProps {
  /** The policy being edited, or undefined for a new one. */
  policyId: string | undefined;
  packageId: string;
  saving: boolean;
  dirty: boolean;
  /** The Review tab is shown: no "Review changes" button. */
  reviewing: boolean;
  onDiscard(): void;
  onReview(): void;
  onDelete(): void;
}

/** Save, discard, review; for a saved policy also duplicate and delete. */
export function PolicySaveBar({ policyId, packageId, saving, dirty, reviewing, onDiscard, onReview, onDelete }: PolicySaveBarProps) {
  return (
    <Group justify="space-between" className="save-bar">
      <Group gap="xs">
        <Button type="submit" leftSection={<IconDeviceFloppy size={16} />} loading={saving}>
          {policyId ? 'Save policy' : 'Create policy'}
        </Button>
        <Button variant="default" disabled={!dirty} onClick={onDiscard}>
          Discard changes
        </Button>
        {!reviewing ? (
          <Button variant="subtle" onClick={onReview}>
            Review changes
          </Button>
        ) : null}
        <Text size="sm" c="dimmed" aria-live="polite">
          {dirty ? 'Unsaved changes' : policyId ? 'Saved' : ''}
        </Text>
      </Group>
      {policyId ? (
        <Group gap="xs">
          <Button
            component="a"
            variant="subtle"
            leftSection={<IconCopy size={16} />}
            href={printRoute({ section: 'directory', view: 'newPolicy', packageId, copyOf: policyId })}
          >
            Duplicate
          </Button>
          <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} onClick={onDelete}>
            Delete
          </Button>
        </Group>
      ) : null}
    </Group>
  );
}
