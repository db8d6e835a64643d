import { Table, Text } from '@mantine/core';
import { useMemo } from 'react';
import type { CalendarRound } from '@shared/contract/directory';
import { UplotChart } from '@renderer/ui/UplotChart';
import { roundKindText } from '../model/sync-status-text';

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' });

/** The rounds of the view: a small chart of what each changed, and the table of all of them. */
export function RoundHistory({ rounds }: { rounds: CalendarRound[] }) {
  const chronological = useMemo(() => [...rounds].reverse(), [rounds]);
  const x = useMemo(() => chronological.map((r) => Date.parse(r.startedAt) / 1000), [chronological]);
  const series = useMemo(
    () => [
      { label: 'added', values: chronological.map((r) => r.added) },
      { label: 'updated', values: chronological.map((r) => r.updated) },
      { label: 'removed', values: chronological.map((r) => r.removed) },
    ],
    [chronological],
  );
  if (rounds.length === 0) return <Text size="sm">No round has run yet.</Text>;
  return (
    <>
      {rounds.length > 1 ? (
        <UplotChart
          x={x}
          series={series}
          format={(v) => String(Math.round(v))}
          label="Events added, updated and removed per round"
          height={160}
          testId="rounds-chart"
        />
      ) : null}
      <Table striped data-testid="round-history">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Started</Table.Th>
            <Table.Th>Round</Table.Th>
            <Table.Th>Took</Table.Th>
            <Table.Th>Pages</Table.Th>
            <Table.Th>Added</Table.Th>
            <Table.Th>Updated</Table.Th>
            <Table.Th>Removed</Table.Th>
            <Table.Th>Result</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rounds.map((round) => (
            <Table.Tr key={round.startedAt + round.kind + String(round.error)}>
              <Table.Td>{timeFormat.format(Date.parse(round.startedAt))}</Table.Td>
              <Table.Td>{roundKindText(round)}</Table.Td>
              <Table.Td>{Math.round(round.durationMs)} ms</Table.Td>
              <Table.Td>{round.pages}</Table.Td>
              <Table.Td>{round.added}</Table.Td>
              <Table.Td>{round.updated}</Table.Td>
              <Table.Td>{round.removed}</Table.Td>
              <Table.Td>
                {round.error ? (
                  <Text c="var(--mantine-color-error)" size="sm">
                    {round.error}
                  </Text>
                ) : (
                  'done'
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </>
  );
}
