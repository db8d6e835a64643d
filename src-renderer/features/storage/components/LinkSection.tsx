import { Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '@renderer/api/api-context';
import { callService } from '@renderer/api/service-query';
import { CopyField } from '@renderer/ui/CopyField';
import { LINK_PRESETS, parseExpiry } from '../model/link-expiry';

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A download link with a chosen expiry (signed for private buckets), to copy. */
export function LinkSection({ accountId, bucket, objectKey }: { accountId: string; bucket: string; objectKey: string }) {
  const api = useApi();
  const [choice, setChoice] = useState<string>('1h');
  const [custom, setCustom] = useState('15m');
  const expiry = parseExpiry(choice === 'custom' ? custom : choice);
  const link = useMutation({
    mutationFn: (seconds: number) =>
      callService(api, 'storage', 'downloadLink', { accountId, bucket, key: objectKey, expiresInSeconds: seconds }),
  });
  return (
    <Stack gap="xs">
      <SegmentedControl
        aria-label="Link expires after"
        size="xs"
        value={choice}
        onChange={setChoice}
        data={[...LINK_PRESETS.map((p) => ({ label: p.label, value: p.value })), { label: 'Custom', value: 'custom' }]}
      />
      {choice === 'custom' ? (
        <TextInput
          size="xs"
          label="Expires after"
          description="90s, 15m, 2h or 7d (at most 30 days)"
          value={custom}
          onChange={(event) => setCustom(event.currentTarget.value)}
          error={'error' in expiry ? expiry.error : undefined}
        />
      ) : null}
      <Group>
        <Button
          size="xs"
          disabled={'error' in expiry}
          loading={link.isPending}
          onClick={() => 'seconds' in expiry && link.mutate(expiry.seconds)}
        >
          Create link
        </Button>
      </Group>
      {link.isError ? (
        <Text size="sm" c="var(--mantine-color-error)" role="alert">
          {link.error.message}
        </Text>
      ) : null}
      {link.data ? (
        <div data-testid="download-link">
          <CopyField value={link.data.url} label="download link" />
          <Text size="xs" c="dimmed">
            Works until {timeFormat.format(link.data.expiresAt)}
          </Text>
        </div>
      ) : null}
    </Stack>
  );
}
