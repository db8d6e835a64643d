import { Anchor, Group, Stack, Table, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import dayjs from 'dayjs';
import { useState } from 'react';
import { formatBytes } from '@renderer/ui/format';
import { QueryState } from '@renderer/ui/QueryState';
import { useCdnLogs } from '../use-cdn';

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The access log files of a day, one per domain and hour, each a download. */
export function CdnLogsPanel({ accountId, domains }: { accountId: string; domains: string[] }) {
  const [date, setDate] = useState<string | null>(dayjs().format('YYYY-MM-DD'));
  const logs = useCdnLogs(accountId, date ?? '', date ? domains : []);
  return (
    <section aria-label="Access logs" className="panel">
      <Stack gap="xs">
        <Group align="flex-end">
          <DatePickerInput label="Logs of (UTC)" size="xs" w={180} value={date} onChange={setDate} maxDate={new Date()} />
        </Group>
        <QueryState query={logs} loading="Listing the logs…" errorTitle="The log list could not be read" />
        {logs.data && logs.data.length === 0 ? (
          <Text size="sm" c="dimmed">
            No access logs for this day.
          </Text>
        ) : null}
        {logs.data && logs.data.length > 0 ? (
          <Table data-testid="cdn-logs" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Domain</Table.Th>
                <Table.Th>File</Table.Th>
                <Table.Th>Size</Table.Th>
                <Table.Th>Written</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {logs.data.map((log) => (
                <Table.Tr key={log.url}>
                  <Table.Td>{log.domain}</Table.Td>
                  <Table.Td>
                    <Anchor href={log.url} download={log.name} rel="noreferrer">
                      {log.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{formatBytes(log.size)}</Table.Td>
                  <Table.Td>{timeFormat.format(log.mtime * 1000)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : null}
      </Stack>
    </section>
  );
}
