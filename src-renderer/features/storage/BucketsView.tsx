import { Anchor, Breadcrumbs, Button, Tabs } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { serviceFilter } from '../../api/service-query';
import { useServiceMutation } from '../../api/use-service-query';
import { printRoute } from '../../app/routes';
import { PageHeader } from '../../ui/PageHeader';
import { QueryState } from '../../ui/QueryState';
import { CdnView } from './CdnView';
import { BucketsTable } from './components/BucketsTable';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { CreateBucketDialog, type NewBucket } from './components/CreateBucketDialog';
import { BucketSettingsDrawer } from './components/bucket-settings/BucketSettingsDrawer';
import type { KodoRegion } from '@shared/contract/storage';
import { useBuckets } from './use-storage';

/** `#/storage/<account>`: the account's buckets; create them (region, access), change their settings, delete them. */
export function BucketsView({
  accountId,
  accountName,
  defaultRegion,
}: {
  accountId: string;
  accountName: string;
  defaultRegion: KodoRegion;
}) {
  const queryClient = useQueryClient();
  const buckets = useBuckets(accountId);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<string>();
  const [settingsOf, setSettingsOf] = useState<string>();
  const refresh = () => queryClient.invalidateQueries(serviceFilter('storage', 'listBuckets', { accountId }));
  const create = useServiceMutation('storage', 'createBucket', { onSuccess: refresh });
  const drop = useServiceMutation('storage', 'deleteBucket', { onSuccess: refresh });

  return (
    <section aria-labelledby="storage-title" data-testid="section-storage">
      <Breadcrumbs mb="xs">
        <Anchor href={printRoute({ section: 'storage' })}>Storage</Anchor>
        <span>{accountName}</span>
      </Breadcrumbs>
      <PageHeader
        titleId="storage-title"
        title={accountName}
        summary="Buckets of this account and the CDN in front of them."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => (create.reset(), setCreating(true))}>
            New bucket
          </Button>
        }
      />
      <Tabs defaultValue="buckets" keepMounted={false}>
        <Tabs.List mb="sm">
          <Tabs.Tab value="buckets">Buckets</Tabs.Tab>
          <Tabs.Tab value="cdn">CDN</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="buckets">
          <QueryState
            query={buckets}
            loading="Loading buckets…"
            errorTitle="The buckets could not be listed"
            empty="This account has no buckets yet."
          >
            {(list) => (
              <BucketsTable
                accountId={accountId}
                buckets={list}
                onSettings={setSettingsOf}
                onDelete={(name) => (drop.reset(), setDeleting(name))}
              />
            )}
          </QueryState>
        </Tabs.Panel>
        <Tabs.Panel value="cdn">
          <CdnView accountId={accountId} />
        </Tabs.Panel>
      </Tabs>
      <CreateBucketDialog
        opened={creating}
        defaultRegion={defaultRegion}
        busy={create.isPending}
        error={create.error?.message}
        onCancel={() => setCreating(false)}
        onSubmit={(bucket: NewBucket) => create.mutate({ accountId, ...bucket }, { onSuccess: () => setCreating(false) })}
      />
      {settingsOf ? (
        <BucketSettingsDrawer accountId={accountId} bucket={settingsOf} opened onClose={() => setSettingsOf(undefined)} />
      ) : null}
      <ConfirmDialog
        opened={Boolean(deleting)}
        title={`Delete bucket ${deleting ?? ''}?`}
        message="Kodo deletes only empty buckets: delete the objects in it first."
        action="Delete bucket"
        busy={drop.isPending}
        error={drop.error?.message}
        onCancel={() => setDeleting(undefined)}
        onConfirm={() => deleting && drop.mutate({ accountId, bucket: deleting }, { onSuccess: () => setDeleting(undefined) })}
      />
    </section>
  );
}
