import { ActionIcon, Anchor, Badge, Table, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { BucketSummary } from '../../../../src-shared/contract/storage';
import { printRoute } from '../../../app/routes';

/** An account's buckets: region, access and domains, each opening the bucket's browser. */
export function BucketsTable({ accountId, buckets, onDelete }: { accountId: string; buckets: BucketSummary[]; onDelete(bucket: string): void }) {
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
              <ActionIcon variant="subtle" color="red" aria-label={`Delete bucket ${bucket.name}`} onClick={() => onDelete(bucket.name)}>
                <IconTrash size={18} />
              </ActionIcon>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
