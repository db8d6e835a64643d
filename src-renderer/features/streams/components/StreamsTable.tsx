import { ActionIcon, Anchor, Group, Table, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconLink, IconPencil, IconSelector, IconTrash } from '@tabler/icons-react';
import { flexRender, getCoreRowModel, getSortedRowModel, useReactTable, type ColumnDef, type SortingState } from '@tanstack/react-table';
import { useState } from 'react';
import { printRoute } from '@renderer/app/routes';
import { formatBytes } from '@renderer/ui/format';
import type { StreamRow } from '../model/stream-rows';
import { StateBadge } from './StateBadge';

export interface StreamsTableProps {
  rows: StreamRow[];
  /** Shows the Relay column (once remote relays exist). */
  showRelay: boolean;
  /** Called with the row's id: a local stream's name, or a remote one's `relay://` source. */
  onEdit(id: string): void;
  onDelete(id: string): void;
}

const STATE_ORDER = { error: 0, connecting: 1, live: 2, 'on demand': 3, 'no source': 4 } as const;

function columns({ onEdit, onDelete, showRelay }: Omit<StreamsTableProps, 'rows'>): ColumnDef<StreamRow>[] {
  const relay: ColumnDef<StreamRow> = {
    accessorKey: 'relay',
    header: 'Relay',
    cell: ({ row }) => (
      <div>
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {row.original.relay}
        </Text>
        {row.original.relayProblem ? (
          <Text size="xs" c="red.8" data-testid="relay-problem">
            {row.original.relayProblem}
          </Text>
        ) : null}
      </div>
    ),
  };
  return [
    {
      accessorKey: 'name',
      header: 'Name',
      cell: ({ row }) => (
        <div>
          <Anchor href={printRoute({ section: 'streams', stream: row.original.id })} fw={500} style={{ whiteSpace: 'nowrap' }}>
            {row.original.name}
          </Anchor>
          {row.original.problem ? (
            <Text size="xs" c="red.8" className="stream-problem">
              {row.original.problem}
            </Text>
          ) : null}
        </div>
      ),
    },
    ...(showRelay ? [relay] : []),
    {
      accessorKey: 'state',
      header: 'State',
      sortingFn: (a, b) => STATE_ORDER[a.original.state] - STATE_ORDER[b.original.state],
      cell: ({ row }) => <StateBadge state={row.original.state} />,
    },
    {
      accessorKey: 'codecs',
      header: 'Codecs',
      cell: ({ getValue }) =>
        (getValue() as string) || (
          <Text span c="dimmed">
            not dialed yet
          </Text>
        ),
    },
    { accessorKey: 'consumers', header: 'Viewers' },
    { accessorKey: 'bytesIn', header: 'Received', cell: ({ getValue }) => formatBytes(getValue() as number) },
    { accessorKey: 'bytesOut', header: 'Sent', cell: ({ getValue }) => formatBytes(getValue() as number) },
    {
      id: 'actions',
      header: () => <span className="visually-hidden">Actions</span>,
      enableSorting: false,
      cell: ({ row }) => {
        const { id, label } = row.original;
        return (
          <Group gap={2} wrap="nowrap" justify="flex-end">
            <ActionIcon
              component="a"
              href={printRoute({ section: 'streams', stream: id, tab: 'links' })}
              variant="subtle"
              aria-label={`Links of ${label}`}
            >
              <IconLink size={18} />
            </ActionIcon>
            <ActionIcon variant="subtle" onClick={() => onEdit(id)} aria-label={`Edit ${label}`}>
              <IconPencil size={18} />
            </ActionIcon>
            <ActionIcon variant="subtle" color="red" onClick={() => onDelete(id)} aria-label={`Delete ${label}`}>
              <IconTrash size={18} />
            </ActionIcon>
          </Group>
        );
      },
    },
  ];
}

const SORT_ICON = { asc: IconChevronUp, desc: IconChevronDown, none: IconSelector } as const;

/** Every stream, sortable by any column; headers are buttons so sorting works from the keyboard. */
export function StreamsTable({ rows, showRelay, onEdit, onDelete }: StreamsTableProps) {
  const [sorting, setSorting] = useState<SortingState>([{ id: 'name', desc: false }]);
  const table = useReactTable({
    data: rows,
    columns: columns({ onEdit, onDelete, showRelay }),
    state: { sorting },
    onSortingChange: setSorting,
    getRowId: (row) => row.id,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table highlightOnHover verticalSpacing="xs" data-testid="streams-table">
        <Table.Thead>
          {table.getHeaderGroups().map((group) => (
            <Table.Tr key={group.id}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                const Icon = SORT_ICON[sorted || 'none'];
                return (
                  <Table.Th key={header.id} aria-sort={sorted ? (sorted === 'asc' ? 'ascending' : 'descending') : undefined}>
                    {header.column.getCanSort() ? (
                      <UnstyledButton onClick={header.column.getToggleSortingHandler()} className="sort-button">
                        {flexRender(header.column.columnDef.header, header.getContext())}
                        <Icon size={14} aria-hidden="true" />
                      </UnstyledButton>
                    ) : (
                      flexRender(header.column.columnDef.header, header.getContext())
                    )}
                  </Table.Th>
                );
              })}
            </Table.Tr>
          ))}
        </Table.Thead>
        <Table.Tbody>
          {table.getRowModel().rows.map((row) => (
            <Table.Tr key={row.id} data-stream={row.id}>
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
