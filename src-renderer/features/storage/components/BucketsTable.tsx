import { ActionIcon, Anchor, Badge, Group, Table, Text } from '@mantine/core';
import { IconSettings, IconTrash } from '@tabler/icons-react';
import type { BucketSummary } from '@shared/contract/storage';
import { printRoute } from '@renderer/app/routes';

/** An account's buckets: region, access and domains, each opening the bucket's browser, with its settings and delete. */
export function BucketsTable({
  accountId,
  buckets,
  onSettings,
  onDelete,
}: {
  accountId: string;
  buckets: BucketSummary[];
  onSettings(bucket: string): void;
  onDelete(bucket: string): void;
}) {
  return (
    <Table highlightOnHover verticalSpacing="sm" data-testid="buckets-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Bucket</Table.Th>
          <Table.Th>Region</Table.Th>
          <Table.Th>Access</Table.Th>
          <Table.Th>Domains</Table.Th>
          <Table.Th>
            <span className="visually-hidden">Actions</span>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {buckets.map((bucket) => (
          <Table.Tr key={bucket.name} data-bucket={bucket.name}>
            <Table.Td>
              <Anchor href={printRoute({ section: 'storage', account: accountId, bucket: bucket.name })} fw={500}>
                {bucket.name}
              </Anchor>
            </Table.Td>
            <Table.Td>{bucket.region ?? '—'}</Table.Td>
            <Table.Td>
              <Badge variant="dot" color={bucket.private ? 'orange' : 'teal'}>
                {bucket.private ? 'Private' : 'Public'}
              </Badge>
            </Table.Td>
            <Table.Td>
              {bucket.domains.length > 0 ? (
                bucket.domains.join(', ')
              ) : (
                <Text span c="dimmed" size="sm">
                  none bound
                </Text>
              )}
            </Table.Td>
            <Table.Td ta="right">
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={`Settings of bucket ${bucket.name}`}
                  onClick={() => onSettings(bucket.name)}
                >
                  <IconSettings size={18} />
                </ActionIcon>
                <ActionIcon variant="subtle" color="red" aria-label={`Delete bucket ${bucket.name}`} onClick={() => onDelete(bucket.name)}>
                  <IconTrash size={18} />
                </ActionIcon>
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
