import { ActionIcon, Table, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface RuleRow {
  key: string;
  /** `data-rule` of the row, for a rule with a name. */
  name?: string;
  content: ReactNode;
  removeLabel: string;
  onRemove(): void;
}

/** A bucket's rules (lifecycle, CORS), one a row with a remove button, or a sentence saying there are none. */
export function RuleTable({ testId, rows, busy, empty }: { testId: string; rows: RuleRow[]; busy: boolean; empty: string }) {
  if (rows.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  }
  return (
    <Table data-testid={testId}>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.key} {...(row.name !== undefined ? { 'data-rule': row.name } : {})}>
            <Table.Td>{row.content}</Table.Td>
            <Table.Td ta="right">
              <ActionIcon variant="subtle" color="red" aria-label={row.removeLabel} disabled={busy} onClick={row.onRemove}>
                <IconTrash size={16} />
              </ActionIcon>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
