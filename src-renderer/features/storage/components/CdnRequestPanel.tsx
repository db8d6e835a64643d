import { Alert, Button, Group, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { CDN_LIMITS } from '@shared/contract/cdn';
import { ResultError } from '@renderer/ui/ResultError';
import { planCdnRequest, type CdnAction } from '../model/cdn-request';
import { useCdnQuota, useCdnRequest } from '../use-cdn';

/** Refresh or prefetch URLs and folders, with the limits shown before anything is sent. */
export function CdnRequestPanel({ accountId }: { accountId: string }) {
  const [action, setAction] = useState<CdnAction>('refresh');
  const [text, setText] = useState('');
  const quota = useCdnQuota(accountId);
  const send = useCdnRequest(accountId);
  const plan = planCdnRequest(text, action);
  const q = quota.data ?? {};
  const daily =
    action === 'refresh'
      ? q.urlSurplusDay !== undefined
        ? `Left today: ${q.urlSurplusDay} of ${q.urlQuotaDay} URL refreshes, ${q.dirSurplusDay} of ${q.dirQuotaDay} folder refreshes.`
        : 'The daily quota is shown after the first refresh.'
      : q.prefetchSurplusDay !== undefined
        ? `Left today: ${q.prefetchSurplusDay} of ${q.prefetchQuotaDay} prefetches.`
        : 'The daily quota is shown after the first prefetch.';
  const count = plan.urls.length + plan.dirs.length;

  return (
    <section aria-label="Refresh and prefetch" className="panel">
      <Stack gap="xs">
        <Group justify="space-between">
          <SegmentedControl
            aria-label="CDN action"
            value={action}
            onChange={(value) => (send.reset(), setAction(value as CdnAction))}
            data={[
              { value: 'refresh', label: 'Refresh' },
              { value: 'prefetch', label: 'Prefetch' },
            ]}
          />
          <Text size="sm" c="dimmed" data-testid="cdn-limits">
            Per request: up to {CDN_LIMITS.urlsPerRequest} URLs
            {action === 'refresh' ? ` and ${CDN_LIMITS.dirsPerRequest} folders (ending in /)` : ''}. {daily}
          </Text>
        </Group>
        <Textarea
          label={action === 'refresh' ? 'URLs and folders to refresh, one per line' : 'URLs to prefetch, one per line'}
          placeholder="https://cdn.example.com/images/logo.png"
          autosize
          minRows={4}
          maxRows={12}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          error={plan.problems.length > 0 ? plan.problems.join(' · ') : undefined}
          className="mono-input"
        />
        <Group>
          <Button
            size="xs"
            leftSection={<IconSend size={16} />}
            disabled={count === 0 || plan.problems.length > 0}
            loading={send.isPending}
            onClick={() => send.mutate({ action, urls: plan.urls, dirs: plan.dirs })}
          >
            {action === 'refresh' ? 'Refresh' : 'Prefetch'} {count > 0 ? count : ''}
          </Button>
        </Group>
        {send.isError ? <ResultError error={send.error} title={`The ${action} was not accepted`} /> : null}
        {send.data ? (
          <Alert color={send.data.invalid.length > 0 ? 'yellow' : 'green'} role="status" data-testid="cdn-result">
            {send.data.accepted} {send.data.accepted === 1 ? 'entry' : 'entries'} accepted (request {send.data.requestId}).
            {send.data.invalid.length > 0 ? ` Refused: ${send.data.invalid.join(', ')}.` : ''}
          </Alert>
        ) : null}
      </Stack>
    </section>
  );
}
