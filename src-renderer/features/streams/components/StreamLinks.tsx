import { Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useMediaBase } from '@renderer/api/use-media-base';
import { ResultError } from '@renderer/ui/ResultError';
import { playerSnippets, streamLinks } from '../model/stream-links';
import { useRelayEndpoints } from '../use-stream-actions';
import { CopyField } from '@renderer/ui/CopyField';

/** Every output URL of a stream, each copyable, with who plays it, and lines for ffplay and VLC. */
export function StreamLinks({ stream }: { stream: string }) {
  const base = useMediaBase();
  const endpoints = useRelayEndpoints();
  const links = useMemo(
    () => (base && endpoints.data ? streamLinks(base, stream, endpoints.data) : undefined),
    [base, endpoints.data, stream],
  );
  if (endpoints.isError) return <ResultError error={endpoints.error} />;
  if (!links) return <Loader size="sm" aria-label="Loading links" />;
  return (
    <Stack gap="lg">
      <Table verticalSpacing="sm" data-testid="stream-links">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Output</Table.Th>
            <Table.Th>URL and players</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {links.map((link) => (
            <Table.Tr key={link.id} data-link={link.id}>
              <Table.Td fw={500} style={{ whiteSpace: 'nowrap' }}>
                {link.label}
              </Table.Td>
              <Table.Td>
                <CopyField value={link.url} label={`${link.label} link`} />
                <Text size="sm" c="dimmed" mt={4}>
                  {link.note}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <div>
        <Title order={3} size="h5" mb="xs">
          Play it from a terminal
        </Title>
        <Stack gap="xs" data-testid="player-snippets">
          {playerSnippets(links).map((line) => (
            <CopyField key={line} value={line} label={`command ${line.split(' ')[0]}`} />
          ))}
        </Stack>
      </div>
    </Stack>
  );
}
