import { Badge, Button, CopyButton, Group, SegmentedControl, Stack, Table, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { GraphExchange } from '@shared/contract/graph-traffic';
import { EmptyState } from '../../ui/EmptyState';
import { QueryState } from '../../ui/QueryState';
import { trafficShown, type TrafficFilter } from './model/traffic-filter';
import { useGraphTraffic } from './use-directory';

const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });
const statusColor = (status: number) =>
  status === 0 || status >= 500 ? 'red' : status >= 400 ? 'orange' : status >= 300 ? 'blue' : 'teal';

/** `#/directory/traffic`: each request the console sent to Graph, as it happens (like Graph Explorer's history). */
export function TrafficView() {
  const { traffic, clear } = useGraphTraffic();
  return (
    <QueryState query={traffic} loading="Reading recent Graph requests…" errorTitle="The Graph traffic could not be read">
      {(exchanges) => <Traffic exchanges={exchanges} onClear={() => clear.mutate()} />}
    </QueryState>
  );
}

function Traffic({ exchanges, onClear }: { exchanges: GraphExchange[]; onClear(): void }) {
  const [filter, setFilter] = useState<TrafficFilter>('all');
  const shown = trafficShown(exchanges, filter);
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <SegmentedControl
          aria-label="Show"
          value={filter}
          onChange={(value) => setFilter(value as TrafficFilter)}
          data={[
            { value: 'all', label: 'All' },
            { value: 'failed', label: 'Failed' },
            { value: 'directory', label: 'Directory pages' },
            { value: 'calendar', label: 'Calendar sync' },
          ]}
        />
        <Button variant="default" leftSection={<IconTrash size={16} />} onClick={onClear} disabled={exchanges.length === 0}>
          Clear
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        The last {exchanges.length} exchanges with Graph. Delta and skip tokens are hidden; the request id is what Microsoft support asks
        for.
      </Text>
      {shown.length === 0 ? (
        <EmptyState>
          {exchanges.length === 0
            ? 'No request has gone to Graph yet. Open a directory page or sync the calendar, and each request shows here.'
            : 'No request matches.'}
        </EmptyState>
      ) : (
        <Table.ScrollContainer minWidth={860}>
          <Table verticalSpacing={4} data-testid="graph-traffic" aria-label="Graph requests">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Time</Table.Th>
                <Table.Th>Method</Table.Th>
                <Table.Th>URL</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Duration</Table.Th>
                <Table.Th>Request id</Table.Th>
                <Table.Th>From</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((exchange) => (
                <ExchangeRow key={exchange.seq} exchange={exchange} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

function ExchangeRow({ exchange }: { exchange: GraphExchange }) {
  const { requestId } = exchange;
  return (
    <Table.Tr data-seq={exchange.seq} data-status={exchange.status}>
      <Table.Td>{timeFormat.format(Date.parse(exchange.at))}</Table.Td>
      <Table.Td>
        <Text fw={600} size="sm">
          {exchange.method}
        </Text>
      </Table.Td>
      <Table.Td className="traffic-url">{exchange.url}</Table.Td>
      <Table.Td>
        <Tooltip label={exchange.errorCode ?? 'OK'} disabled={!exchange.errorCode}>
          <Badge variant="dot" color={statusColor(exchange.status)}>
            {exchange.status === 0 ? 'no answer' : exchange.status}
          </Badge>
        </Tooltip>
        {exchange.errorCode ? (
          <Text size="xs" c="dimmed">
            {exchange.errorCode}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>{exchange.durationMs.toFixed(0)} ms</Table.Td>
      <Table.Td>
        {requestId ? (
          <CopyButton value={requestId}>
            {({ copied, copy }) => (
              <UnstyledButton onClick={copy} aria-label={`Copy request id ${requestId}`} className="traffic-url">
                {copied ? 'Copied' : `${requestId.slice(0, 8)}…`}
              </UnstyledButton>
            )}
          </CopyButton>
        ) : (
          '—'
        )}
      </Table.Td>
      <Table.Td>{exchange.source === 'calendar' ? 'Calendar sync' : 'Directory'}</Table.Td>
    </Table.Tr>
  );
}
