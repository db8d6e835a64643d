import { ActionIcon, Button, Group, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconPencil, IconPlugConnected, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { RelayInfo } from '@shared/contract/relays';
import { useRelays } from '@renderer/api/use-relays';
import { ConfirmDialog } from '@renderer/ui/ConfirmDialog';
import { QueryState } from '@renderer/ui/QueryState';
import { ResultError } from '@renderer/ui/ResultError';
import { RelayForm } from './components/RelayForm';
import { RelayHealth } from './components/RelayHealth';
import { RelaysEmpty } from './components/RelaysEmpty';
import { RelayStateBadge } from './components/RelayStateBadge';
import { RelayTestResult } from './components/RelayTestResult';
import { useRelayActions } from './use-relay-actions';

type Dialog = { kind: 'add' } | { kind: 'edit'; relay: RelayInfo } | { kind: 'remove'; relay: RelayInfo } | undefined;

/**
 * Settings → Remote relays: every relay beside the embedded one with its state and health (kept
 * fresh by `onRelays`), and add, test, change and remove. Logins stay in main.
 */
export function RelaysPanel() {
  const relays = useRelays();
  const { remove, test } = useRelayActions();
  const [dialog, setDialog] = useState<Dialog>();
  const tested = test.variables && 'name' in test.variables ? test.variables.name : undefined;

  return (
    <section className="panel" aria-labelledby="relays-title" data-testid="relays-panel">
      <Group justify="space-between" mb="xs">
        <Title order={2} id="relays-title" size="h4">
          Remote relays
        </Title>
        <Button size="xs" leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'add' })}>
          Add relay
        </Button>
      </Group>
      <QueryState query={relays} loading="Reading the remote relays…" errorTitle="The remote relays could not be read">
        {(list) =>
          list.length === 0 ? (
            <RelaysEmpty />
          ) : (
            <Table verticalSpacing="xs" highlightOnHover data-testid="relays-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Relay</Table.Th>
                  <Table.Th>State and health</Table.Th>
                  <Table.Th>
                    <span className="visually-hidden">Actions</span>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((relay) => (
                  <Table.Tr key={relay.name} data-relay={relay.name}>
                    <Table.Td>
                      <Text fw={500} size="sm">
                        {relay.name}
                      </Text>
                      <Text size="xs" c="dimmed" ff="monospace">
                        {relay.url}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {[
                          relay.hasLogin ? `login ${relay.username ?? 'kept'}` : 'no login',
                          relay.origin === 'config' ? 'from the config file' : 'added here',
                        ]
                          .filter(Boolean)
                          .join(' · ')}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <RelayStateBadge relay={relay} />
                      {relay.health && relay.state === 'reachable' ? (
                        <RelayHealth health={relay.health} label={`Health of ${relay.name}`} />
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={2} justify="flex-end" wrap="nowrap">
                        <Tooltip label="Test now">
                          <ActionIcon
                            variant="subtle"
                            aria-label={`Test ${relay.name}`}
                            loading={test.isPending && tested === relay.name}
                            onClick={() => test.mutate({ name: relay.name })}
                          >
                            <IconPlugConnected size={18} />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label="Rename, or change its address or login">
                          <ActionIcon
                            variant="subtle"
                            aria-label={`Change ${relay.name}`}
                            onClick={() => setDialog({ kind: 'edit', relay })}
                          >
                            <IconPencil size={18} />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label="Remove">
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={`Remove ${relay.name}`}
                            onClick={() => (remove.reset(), setDialog({ kind: 'remove', relay }))}
                          >
                            <IconTrash size={18} />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )
        }
      </QueryState>
      <Stack gap="xs" mt={test.data || test.isError ? 'sm' : 0}>
        {tested && test.data ? <RelayTestResult result={test.data} what={tested} /> : null}
        {tested && test.isError ? <ResultError error={test.error} title={`${tested} could not be tested`} /> : null}
      </Stack>
      <RelayForm
        opened={dialog?.kind === 'add' || dialog?.kind === 'edit'}
        editing={dialog?.kind === 'edit' ? dialog.relay : undefined}
        onClose={() => setDialog(undefined)}
        onSaved={() => setDialog(undefined)}
      />
      <ConfirmDialog
        opened={dialog?.kind === 'remove'}
        title={`Remove ${dialog?.kind === 'remove' ? dialog.relay.name : ''}?`}
        message="The console forgets this relay and its sealed login; its tiles and streams leave the console. Nothing on the relay itself is changed."
        action="Remove"
        busy={remove.isPending}
        error={remove.error?.message}
        onCancel={() => setDialog(undefined)}
        onConfirm={() => dialog?.kind === 'remove' && remove.mutate({ name: dialog.relay.name }, { onSuccess: () => setDialog(undefined) })}
      />
    </section>
  );
}
