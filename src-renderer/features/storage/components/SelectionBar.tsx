import { Button, Group, Loader, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { everythingSentence, type ObjectCount } from '../model/selection';

/**
 * Above the table while rows are selected: how many, or that every object of the folder is
 * (counted by the service, not by the rows loaded), with a way to clear or to select all.
 */
export function SelectionBar({
  prefix,
  all,
  count,
  selectedRows,
  onSelectAll,
  onClear,
}: {
  prefix: string;
  all: boolean;
  count: ObjectCount;
  selectedRows: number;
  onSelectAll(): void;
  onClear(): void;
}) {
  if (!all && selectedRows === 0) return null;
  return (
    <div className="batch-panel" role="status" aria-label="Selection" data-testid="selection-bar">
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          {all && count.state === 'counting' ? <Loader size="xs" aria-label="Counting the objects" /> : null}
          <Text size="sm" c={all && count.state === 'failed' ? 'red.8' : undefined}>
            {all
              ? everythingSentence(prefix, count)
              : `${selectedRows.toLocaleString('en-US')} ${selectedRows === 1 ? 'row' : 'rows'} selected`}
          </Text>
        </Group>
        <Group gap="xs" wrap="nowrap">
          {!all ? (
            <Button size="compact-sm" variant="subtle" onClick={onSelectAll}>
              Select all in this folder
            </Button>
          ) : null}
          <Button size="compact-sm" variant="subtle" color="gray" leftSection={<IconX size={14} />} onClick={onClear}>
            Clear selection
          </Button>
        </Group>
      </Group>
    </div>
  );
}
