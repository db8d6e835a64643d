import { Anchor, Breadcrumbs, Button, Group } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import { useState } from 'react';
import type { StorageRoute } from '../../app/routes';
import { printRoute } from '../../app/routes';
import { LoadingLine } from '../../ui/LoadingLine';
import { AccountsView } from './AccountsView';
import { BrowserView } from './BrowserView';
import { BucketsView } from './BucketsView';
import { BucketSettingsDrawer } from './components/bucket-settings/BucketSettingsDrawer';
import { useStorageAccounts } from './use-storage';

/** The Storage section: accounts → buckets → a bucket's folders, one route each. */
export function StorageView({ route }: { route: StorageRoute }) {
  const accounts = useStorageAccounts();
  const [settingsOpen, setSettingsOpen] = useState(false);
  if (!route.account) return <AccountsView />;
  if (accounts.isPending) return <LoadingLine>Loading accounts…</LoadingLine>;
  const account = accounts.data?.find((a) => a.id === route.account);
  if (!account) {
    return (
      <section data-testid="section-storage">
        <div role="alert" className="panel error-panel">
          <strong>No storage account “{route.account}”</strong>
          <p>
            It may have been removed. <Anchor href={printRoute({ section: 'storage' })}>Show the accounts</Anchor>
          </p>
        </div>
      </section>
    );
  }
  if (!route.bucket) return <BucketsView accountId={account.id} accountName={account.name} defaultRegion={account.region ?? 'z0'} />;
  return (
    <section aria-label={`Bucket ${route.bucket}`} data-testid="section-storage">
      <Group justify="space-between" mb="xs">
        <Breadcrumbs>
          <Anchor href={printRoute({ section: 'storage' })}>Storage</Anchor>
          <Anchor href={printRoute({ section: 'storage', account: account.id })}>{account.name}</Anchor>
          <span>{route.bucket}</span>
        </Breadcrumbs>
        <Button size="xs" variant="subtle" leftSection={<IconSettings size={16} />} onClick={() => setSettingsOpen(true)}>
          Bucket settings
        </Button>
      </Group>
      <BucketSettingsDrawer accountId={account.id} bucket={route.bucket} opened={settingsOpen} onClose={() => setSettingsOpen(false)} />
      <BrowserView accountId={account.id} bucket={route.bucket} prefix={route.prefix ?? ''} />
    </section>
  );
}
