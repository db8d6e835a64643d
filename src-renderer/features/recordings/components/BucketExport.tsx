import { Anchor, Button, Group, Select, Text, TextInput } from '@mantine/core';
import { IconBucket } from '@tabler/icons-react';
import { useState } from 'react';
import { printRoute } from '../../../app/routes';
import { useServiceQuery } from '../../../api/use-service-query';
import { ResultError } from '../../../ui/ResultError';
import { useBucketExport } from '../use-bucket-export';

/** Export the chosen range into a bucket as one object, through the transfer queue. */
export function BucketExport({ url, suggestedKey }: { url: string | undefined; suggestedKey: string }) {
  const accounts = useServiceQuery('storage', 'listAccounts');
  const [accountId, setAccountId] = useState<string | null>(null);
  const account = accountId ?? accounts.data?.[0]?.id ?? null;
  const buckets = useServiceQuery('storage', 'listBuckets', { accountId: account ?? '' }, { enabled: account !== null });
  const [bucket, setBucket] = useState<string | null>(null);
  const [key, setKey] = useState<string | undefined>(undefined);
  const send = useBucketExport();
  const objectKey = key ?? suggestedKey;
  const ready = url !== undefined && account !== null && bucket !== null && /^[^/].*[^/]$/.test(objectKey);
  return (
    <>
      <Group gap="sm" align="flex-end" wrap="wrap" mt="md">
        <Select
          size="xs"
          label="Account"
          data={(accounts.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
          value={account}
          onChange={(value) => {
            setAccountId(value);
            setBucket(null);
          }}
          allowDeselect={false}
        />
        <Select
          size="xs"
          label="Bucket"
          placeholder="Choose a bucket"
          data={(buckets.data ?? []).map((b) => b.name)}
          value={bucket}
          onChange={setBucket}
          searchable
        />
        <TextInput size="xs" label="Object key" value={objectKey} onChange={(e) => setKey(e.currentTarget.value)} miw={280} />
        <Button
          size="xs"
          variant="default"
          disabled={!ready}
          loading={send.isPending}
          leftSection={<IconBucket size={14} aria-hidden="true" />}
          onClick={() => ready && send.mutate({ url, accountId: account, bucket, key: objectKey })}
        >
          Export to bucket
        </Button>
      </Group>
      {send.isError ? <ResultError error={send.error} title="The export was not queued" /> : null}
      {send.isSuccess ? (
        <Text size="sm" mt="xs" role="status">
          Export queued as an upload of {send.data?.name ?? objectKey}.{' '}
          <Anchor href={printRoute({ section: 'transfers' })} underline="always">
            Follow it under Transfers
          </Anchor>
          .
        </Text>
      ) : null}
    </>
  );
}
