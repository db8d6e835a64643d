import { Stack, Table, Text, Title } from '@mantine/core';
import type { StreamSummary } from '@shared/contract/relay';
import { formatBytes } from '@renderer/ui/format';
import { describeCodec } from '../model/stream-rows';
import { StateBadge } from './StateBadge';

/** Where a stream comes from (producers, with their errors) and who watches it (consumers). */
export function StreamActivity({ stream }: { stream: StreamSummary }) {
  return (
    <Stack gap="xl">
      <section aria-labelledby="producers-title">
        <Title order={2} size="h4" id="producers-title" mb="xs">
          Sources
        </Title>
        <Table verticalSpacing="xs" data-testid="producers">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>URL</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>Codecs</Table.Th>
              <Table.Th>Received</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {stream.producers.map((producer, index) => (
              <Table.Tr key={`${producer.url}-${index}`}>
                <Table.Td>
                  <code>{producer.url}</code>
                  {producer.error ? (
                    <Text size="sm" c="red.8" role="status">
                      {producer.error}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <StateBadge state={producer.state} />
                </Table.Td>
                <Table.Td>{producer.codecs.map(describeCodec).join(', ') || producer.medias.join(', ') || '—'}</Table.Td>
                <Table.Td>{formatBytes(producer.bytesReceived)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {stream.producers.length === 0 ? <Text c="dimmed">This stream has no source; edit it to add one.</Text> : null}
      </section>
      <section aria-labelledby="consumers-title">
        <Title order={2} size="h4" id="consumers-title" mb="xs">
          Viewers
        </Title>
        {stream.consumers.length === 0 ? (
          <Text c="dimmed" data-testid="no-consumers">
            No one is watching. The relay dials the source when the first viewer connects and hangs up after the last one leaves.
          </Text>
        ) : (
          <Table verticalSpacing="xs" data-testid="consumers">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Protocol</Table.Th>
                <Table.Th>Remote</Table.Th>
                <Table.Th>Tracks</Table.Th>
                <Table.Th>Sent</Table.Th>
                <Table.Th>Dropped</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {stream.consumers.map((consumer, index) => (
                <Table.Tr key={`${consumer.remote}-${index}`}>
                  <Table.Td>{consumer.protocol}</Table.Td>
                  <Table.Td>
                    <code>{consumer.remote || '—'}</code>
                  </Table.Td>
                  <Table.Td>{consumer.medias.join(', ') || '—'}</Table.Td>
                  <Table.Td>{formatBytes(consumer.bytesSent)}</Table.Td>
                  <Table.Td>{consumer.drops}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </section>
    </Stack>
  );
}
