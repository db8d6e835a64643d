import { Stack, Title } from '@mantine/core';
import { useMemo } from 'react';
import { EmptyState } from '../../ui/EmptyState';
import { QueryState } from '../../ui/QueryState';
import { CdnLogsPanel } from './components/CdnLogsPanel';
import { CdnRequestPanel } from './components/CdnRequestPanel';
import { TrafficPanel } from './components/TrafficPanel';
import { useCdnDomains } from './use-cdn';

/** The CDN of an account: refresh and prefetch, traffic charts, access logs. */
export function CdnView({ accountId }: { accountId: string }) {
  const domains = useCdnDomains(accountId);
  return (
    <QueryState query={domains} loading="Reading the CDN domains…" errorTitle="The CDN domains could not be read">
      {(list) => <Cdn accountId={accountId} domains={list} />}
    </QueryState>
  );
}

function Cdn({ accountId, domains }: { accountId: string; domains: Array<{ domain: string }> }) {
  const names = useMemo(() => [...new Set(domains.map((d) => d.domain))], [domains]);
  return (
    <Stack gap="md" data-testid="cdn-view">
      <CdnRequestPanel accountId={accountId} />
      <Title order={2} size="h4">
        Traffic
      </Title>
      {names.length === 0 ? (
        <EmptyState>No bucket of this account has a domain yet, so there is no CDN traffic to show.</EmptyState>
      ) : (
        <TrafficPanel accountId={accountId} domains={names} />
      )}
      <Title order={2} size="h4">
        Access logs
      </Title>
      {names.length > 0 ? <CdnLogsPanel accountId={accountId} domains={names} /> : null}
    </Stack>
  );
}
