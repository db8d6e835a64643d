import { Button, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap } from '../../../src-shared/contract/result';
import type { StorageAccount } from '../../../src-shared/contract/storage';
import { useApi } from '../../api/api-context';
import { SECTIONS } from '../../app/sections';
import { useUi } from '../../app/ui-store-context';
import { LoadingLine } from '../../ui/LoadingLine';
import { PageHeader } from '../../ui/PageHeader';
import { ResultError } from '../../ui/ResultError';
import { AccountForm } from './components/AccountForm';
import { AccountsTable } from './components/AccountsTable';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { useStorageAccounts } from './use-storage';

/** `#/storage`: the accounts, the local emulator first; add and remove Kodo accounts. */
export function AccountsView() {
  const api = useApi();
  const navigate = useUi((s) => s.navigate);
  const accounts = useStorageAccounts();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<StorageAccount>();
  const remove = useMutation({ mutationFn: async (accountId: string) => unwrap(await api.storage.removeAccount({ accountId })) });

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
      {accounts.isPending ? <LoadingLine>Loading accounts…</LoadingLine> : null}
      {accounts.isError ? <ResultError error={accounts.error} /> : null}
      {accounts.data ? (
        <Stack gap="sm">
          <AccountsTable accounts={accounts.data} onRemove={(account) => (remove.reset(), setRemoving(account))} />
          {accounts.data.length === 0 ? <p className="muted">The local storage emulator is turned off (storage.emulator.enabled: false). Add a Kodo account to browse buckets.</p> : null}
        </Stack>
      ) : null}
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
        onConfirm={() => removing && remove.mutate(removing.id, { onSuccess: () => setRemoving(undefined) })}
      />
    </section>
  );
}
