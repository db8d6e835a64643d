import { Button, Checkbox, Popover, Stack } from '@mantine/core';
import { IconColumns } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { assignmentColumns, type AssignmentColumn } from '@shared/contract/directory';
import { ASSIGNMENT_COLUMN_LABELS } from '../model/assignment-cells';

/** Which columns the assignment list shows; Graph is then asked for those properties only ($select/$expand). */
export function ColumnChooser({ columns, onChange }: { columns: AssignmentColumn[]; onChange(columns: AssignmentColumn[]): void }) {
  // The boxes follow the click at once; the saved choice catches up (and wins if it differs).
  const [checked, setChecked] = useState<string[]>(columns);
  useEffect(() => setChecked(columns), [columns]);
  const choose = (next: string[]) => {
    if (next.length === 0) return; // at least one column stays
    const ordered = assignmentColumns.filter((column) => next.includes(column));
    setChecked(ordered);
    onChange(ordered);
  };
  return (
    <Popover position="bottom-end" trapFocus>
      <Popover.Target>
        <Button variant="default" leftSection={<IconColumns size={16} />}>
          Columns
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Checkbox.Group label="Columns shown" value={checked} onChange={choose}>
          <Stack gap={6} mt="xs">
            {assignmentColumns.map((column) => (
              <Checkbox key={column} value={column} label={ASSIGNMENT_COLUMN_LABELS[column]} />
            ))}
          </Stack>
        </Checkbox.Group>
      </Popover.Dropdown>
    </Popover>
  );
}
