import { ActionIcon, Badge, Button, Group, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { DirectoryConnectionEntry } from '@shared/contract/directory-accounts';
import { ConfirmDialog } from '@renderer/ui/ConfirmDialog';
import { QueryState } from '@renderer/ui/QueryState';
import { ResultError } from '@renderer/ui/ResultError';
import { SIGN_IN_LABELS } from '../model/sign-in-text';
import { useDirectoryConnections } from '../use-directory-connections';
import { TenantForm } from './TenantForm';

/** The directory connections: the config file's (the emulator by default) and the tenants added here; one is in use. */
export function DirectoryConnectionsPanel() {
  const { list, add, remove, use } = useDirectoryConnections();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<DirectoryConnectionEntry>();

  return (
    <section className="panel" aria-labelledby="directory-connections-title" data-testid="directory-connections">
      <Group justify="space-between" mb="xs">
        <Title order={2} id="directory-connections-title" size="h4">
          Directory connections
        </Title>
        <Button size="xs" leftSection={<IconPlus size={16} />} onClick={() => (add.reset(), setAdding(true))}>
          Add tenant
        </Button>
      </Group>
      <QueryState query={list} loading="Reading the directory connections…" errorTitle="The directory connections could not be read" />
      {use.isError ? <ResultError error={use.error} title="The connection was not switched" /> : null}
      {list.data ? (
        <Table verticalSpacing="xs" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Connection</Table.Th>
              <Table.Th>Tenant</Table.Th>
              <Table.Th>Application (client) id</Table.Th>
              <Table.Th>Sign-in</Table.Th>
              <Table.Th>
                <span className="visually-hidden">Actions</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.map((entry) => (
              <Table.Tr key={entry.id} data-connection={entry.id} aria-current={entry.active ? 'true' : undefined}>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Text fw={500} size="sm">
                      {entry.name}
                    </Text>
                    {entry.active ? (
                      <Badge variant="dot" color="teal">
                        In use
                      </Badge>
                    ) : null}
                  </Group>
                  {entry.problem ? (
                    <Text size="xs" c="var(--mantine-color-error)">
                      {entry.problem}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{entry.info?.tenant ?? '—'}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {entry.info?.clientId ?? '—'}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{entry.info ? SIGN_IN_LABELS[entry.info.signIn] : '—'}</Text>
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    {entry.active ? null : (
                      <Button
                        size="xs"
                        variant="default"
                        loading={use.isPending && use.variables.id === entry.id}
                        onClick={() => use.mutate({ id: entry.id })}
                        aria-label={`Use ${entry.name}`}
                      >
                        Use
                      </Button>
                    )}
                    {entry.source === 'added' ? (
                      <Tooltip label="Remove">
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Remove ${entry.name}`}
                          onClick={() => (remove.reset(), setRemoving(entry))}
                        >
                          <IconTrash size={18} />
                        </ActionIcon>
                      </Tooltip>
                    ) : null}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      {list.data?.length === 1 ? (
        <Text size="sm" c="dimmed" mt="xs">
          No tenants added yet. Add one to manage a real Microsoft Entra directory; the built-in emulator stays in the list.
        </Text>
      ) : null}
      <TenantForm
        opened={adding}
        onClose={() => setAdding(false)}
        add={(tenant) => add.mutateAsync(tenant)}
        error={add.error}
        onAdded={() => setAdding(false)}
      />
      <ConfirmDialog
        opened={Boolean(removing)}
        title={`Remove ${removing?.name ?? ''}?`}
        message={`The console forgets this tenant, its sealed client secret, its sign-in and its calendar copy.${removing?.active ? ' The config file’s connection takes over.' : ''} Nothing in the tenant is changed.`}
        action="Remove"
        busy={remove.isPending}
        error={remove.error?.message}
        onCancel={() => setRemoving(undefined)}
        onConfirm={() => removing && remove.mutate({ id: removing.id }, { onSuccess: () => setRemoving(undefined) })}
      />
    </section>
  );
}
