import { Anchor, Badge, Table } from '@mantine/core';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import type { Assignment, AssignmentColumn } from '@shared/contract/directory';
import { printRoute } from '@renderer/app/routes';
import { formatDateTime } from '@renderer/ui/format';
import { ASSIGNMENT_COLUMN_LABELS, ASSIGNMENT_STATE_LABELS, scheduleText, targetText } from '../model/assignment-cells';

const STATE_COLOR: Record<string, string> = {
  delivered: 'teal',
  expired: 'gray',
  deliveryFailed: 'red',
  delivering: 'blue',
  partiallyDelivered: 'orange',
};
const name = (value: unknown) =>
  ((value ?? {}) as { displayName?: string | null; id?: string }).displayName ?? ((value ?? {}) as { id?: string }).id ?? '—';

const CELLS: Record<AssignmentColumn, (a: Assignment) => React.ReactNode> = {
  target: (a) => (
    <Anchor href={printRoute({ section: 'directory', view: 'assignments', assignmentId: a.id })} fw={500}>
      {targetText(a.target)}
    </Anchor>
  ),
  accessPackage: (a) => name(a.accessPackage),
  assignmentPolicy: (a) => name(a.assignmentPolicy),
  state: (a) => (
    <Badge variant="dot" color={STATE_COLOR[a.state ?? ''] ?? 'gray'}>
      {ASSIGNMENT_STATE_LABELS[a.state ?? ''] ?? a.state ?? '—'}
    </Badge>
  ),
  status: (a) => a.status ?? '—',
  schedule: (a) => scheduleText(a.schedule, formatDateTime),
  expiredDateTime: (a) => (a.expiredDateTime ? formatDateTime(a.expiredDateTime) : '—'),
};

/** One page of assignments with the chosen columns; the first cell opens the assignment. */
export function AssignmentTable({
  items,
  columns,
  selectedId,
}: {
  items: Assignment[];
  columns: AssignmentColumn[];
  selectedId: string | undefined;
}) {
  const defs = useMemo<ColumnDef<Assignment>[]>(
    () =>
      columns.map((column, index) => ({
        id: column,
        header: ASSIGNMENT_COLUMN_LABELS[column],
        // Without the target column, the first one carries the link to the details.
        cell: ({ row }) =>
          index === 0 && column !== 'target' ? (
            <Anchor href={printRoute({ section: 'directory', view: 'assignments', assignmentId: row.original.id })}>
              {CELLS[column](row.original)}
            </Anchor>
          ) : (
            CELLS[column](row.original)
          ),
      })),
    [columns],
  );
  const table = useReactTable({ data: items, columns: defs, getRowId: (row) => row.id, getCoreRowModel: getCoreRowModel() });
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table highlightOnHover verticalSpacing="xs" data-testid="assignment-table">
        <Table.Thead>
          {table.getHeaderGroups().map((group) => (
            <Table.Tr key={group.id}>
              {group.headers.map((header) => (
                <Table.Th key={header.id}>{flexRender(header.column.columnDef.header, header.getContext())}</Table.Th>
              ))}
            </Table.Tr>
          ))}
        </Table.Thead>
        <Table.Tbody>
          {table.getRowModel().rows.map((row) => (
            <Table.Tr key={row.id} data-assignment={row.id} aria-selected={row.id === selectedId}>
              {row.getVisibleCells().map((cell) => (
                <Table.Td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
