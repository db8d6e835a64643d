import { ActionIcon, Anchor, Badge, Table, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { KODO_REGIONS, type StorageAccount } from '@shared/contract/storage';
import { printRoute } from '@renderer/app/routes';

const whereOf = (account: StorageAccount) =>
  account.kind === 'emulator'
    ? 'On this computer'
    : account.region
      ? `${KODO_REGIONS[account.region]} (${account.region})`
      : (account.endpoints?.uc ?? '');

/** The storage accounts: the built-in local one first, then the user's Kodo accounts. */
export function AccountsTable({ accounts, onRemove }: { accounts: StorageAccount[]; onRemove(account: StorageAccount): void }) {
  return (
    <Table highlightOnHover verticalSpacing="sm" data-testid="accounts-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Account</Table.Th>
          <Table.Th>Kind</Table.Th>
          <Table.Th>AccessKey</Table.Th>
          <Table.Th>Where</Table.Th>
          <Table.Th>
            <span className="visually-hidden">Actions</span>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {accounts.map((account) => (
          <Table.Tr key={account.id} data-account={account.id}>
            <Table.Td>
              <Anchor href={printRoute({ section: 'storage', account: account.id })} fw={500}>
                {account.name}
              </Anchor>
            </Table.Td>
            <Table.Td>
              <Badge variant="dot" color={account.kind === 'emulator' ? 'gray' : 'blue'}>
                {account.kind === 'emulator' ? 'Local emulator' : 'Kodo'}
              </Badge>
            </Table.Td>
            <Table.Td>
              <Text span ff="monospace" size="sm">
                {account.accessKey}
              </Text>
            </Table.Td>
            <Table.Td>{whereOf(account)}</Table.Td>
            <Table.Td ta="right">
              {account.kind === 'kodo' ? (
                <ActionIcon variant="subtle" color="red" aria-label={`Remove ${account.name}`} onClick={() => onRemove(account)}>
                  <IconTrash size={18} />
                </ActionIcon>
              ) : null}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
