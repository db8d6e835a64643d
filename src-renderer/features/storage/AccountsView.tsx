import { Button, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import type { StorageAccount } from '@shared/contract/storage';
import { useServiceMutation } from '../../api/use-service-query';
import { SECTIONS } from '../../app/sections';
import { useUi } from '../../app/ui-store-context';
import { PageHeader } from '../../ui/PageHeader';
import { QueryState } from '../../ui/QueryState';
import { AccountForm } from './components/AccountForm';
import { AccountsTable } from './components/AccountsTable';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { useStorageAccounts } from './use-storage';

/** `#/storage`: the accounts, the local emulator first; add and remove Kodo accounts. */
export function AccountsView() {
  const navigate = useUi((s) => s.navigate);
  const accounts = useStorageAccounts();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<StorageAccount>();
  const remove = useServiceMutation('storage', 'removeAccount');

  return (
    <section aria-labelledby="storage-title" data-testid="section-storage">
      <PageHeader
        titleId="storage-title"
        title={SECTIONS.storage.title}
        summary={SECTIONS.storage.summary}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
            Add Kodo account
          </Button>
        }
      />
      <QueryState query={accounts} loading="Loading accounts…">
        {(list) => (
          <Stack gap="sm">
            <AccountsTable accounts={list} onRemove={(account) => (remove.reset(), setRemoving(account))} />
            {list.length === 0 ? (
              <p className="muted">
                The local storage emulator is turned off (storage.emulator.enabled: false). Add a Kodo account to browse buckets.
              </p>
            ) : null}
          </Stack>
        )}
      </QueryState>
      <AccountForm
        opened={adding}
        onClose={() => setAdding(false)}
        onAdded={(account) => {
          setAdding(false);
          navigate({ section: 'storage', account: account.id });
        }}
      />
      <ConfirmDialog
        opened={Boolean(removing)}
        title={`Remove ${removing?.name ?? ''}?`}
        message="The console forgets this account and its sealed SecretKey. Nothing in its buckets is touched."
        action="Remove"
        busy={remove.isPending}
        error={remove.error?.message}
        onCancel={() => setRemoving(undefined)}
        onConfirm={() => removing && remove.mutate({ accountId: removing.id }, { onSuccess: () => setRemoving(undefined) })}
      />
    </section>
  );
}
