import { Alert, Stack, Title } from '@mantine/core';
import { useMemo } from 'react';
import { LoadingLine } from '../../ui/LoadingLine';
import { ResultError } from '../../ui/ResultError';
import { CdnLogsPanel } from './components/CdnLogsPanel';
import { CdnRequestPanel } from './components/CdnRequestPanel';
import { TrafficPanel } from './components/TrafficPanel';
import { useCdnDomains } from './use-cdn';

/** The CDN of an account: refresh and prefetch, traffic charts, access logs. */
export function CdnView({ accountId }: { accountId: string }) {
  const domains = useCdnDomains(accountId);
  const names = useMemo(() => [...new Set((domains.data ?? []).map((d) => d.domain))], [domains.data]);
  if (domains.isPending) return <LoadingLine>Reading the CDN domains…</LoadingLine>;
  if (domains.isError) return <ResultError error={domains.error} title="The CDN domains could not be read" />;
  return (
    <Stack gap="md" data-testid="cdn-view">
      <CdnRequestPanel accountId={accountId} />
      <Title order={2} size="h4">
        Traffic
      </Title>
      {names.length === 0 ? <Alert color="gray">No bucket of this account has a domain yet, so there is no CDN traffic to show.</Alert> : <TrafficPanel accountId={accountId} domains={names} />}
      <Title order={2} size="h4">
        Access logs
      </Title>
      {names.length > 0 ? <CdnLogsPanel accountId={accountId} domains={names} /> : null}
    </Stack>
  );
}
