import { Button, Divider, Drawer, Group, NumberInput, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { STORAGE_CLASSES, type ObjectDetails as Details, type StorageClass } from '@shared/contract/storage';
import { useApi } from '@renderer/api/api-context';
import { callService } from '@renderer/api/service-query';
import { useServiceQuery } from '@renderer/api/use-service-query';
import { formatBytes } from '@renderer/ui/format';
import { QueryState } from '@renderer/ui/QueryState';
import { useBucketMutation } from '../use-storage';
import { LinkSection } from './LinkSection';
import { ObjectPreview } from './ObjectPreview';
import { ProcessSection } from './ProcessSection';

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const CLASS_LABEL: Record<StorageClass, string> = {
  standard: 'Standard',
  infrequent: 'Infrequent access',
  archive: 'Archive',
  'deep-archive': 'Deep archive',
  'archive-ir': 'Archive (instant retrieval)',
};

export interface ObjectDetailsProps {
  accountId: string;
  bucket: string;
  objectKey: string | undefined;
  onClose(): void;
  onRename(key: string): void;
  onDelete(key: string): void;
  /** Shows another object of the bucket (a processing result). */
  onOpen(key: string): void;
}

function Facts({ details }: { details: Details }) {
  const rows: Array<[string, string]> = [
    ['Size', `${formatBytes(details.size)} (${details.size.toLocaleString('en-US')} bytes)`],
    ['MIME type', details.mimeType],
    ['Storage class', CLASS_LABEL[details.storageClass]],
    ['Uploaded', timeFormat.format(details.putTime)],
    ['Hash (etag)', details.hash],
    ...(details.md5 ? ([['MD5', details.md5]] as Array<[string, string]>) : []),
    ...(details.expiration ? ([['Deleted on', timeFormat.format(details.expiration)]] as Array<[string, string]>) : []),
    ...(details.restore ? ([['Archive state', details.restore]] as Array<[string, string]>) : []),
    ...Object.entries(details.metadata).map(([name, value]): [string, string] => [`x-qn-meta-${name}`, value]),
  ];
  return (
    <Table withRowBorders={false} verticalSpacing={4} data-testid="object-facts">
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={130}>{label}</Table.Th>
            <Table.Td className="break-all">{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** One object: what Kodo says of it, a download link, and the changes Kodo allows in place. */
export function ObjectDetails({ accountId, bucket, objectKey, onClose, onRename, onDelete, onOpen }: ObjectDetailsProps) {
  const api = useApi();
  const key = objectKey ?? '';
  const stat = useServiceQuery('storage', 'statObject', { accountId, bucket, key }, { enabled: Boolean(objectKey) });
  const update = useBucketMutation(
    accountId,
    bucket,
    (change: { mimeType?: string; storageClass?: StorageClass; deleteAfterDays?: number }) =>
      callService(api, 'storage', 'updateObject', { accountId, bucket, key, ...change }),
  );
  const restore = useBucketMutation(accountId, bucket, (days: number) =>
    callService(api, 'storage', 'restoreObject', { accountId, bucket, key, days }),
  );
  const [mime, setMime] = useState('');
  const [days, setDays] = useState<number | string>(30);
  useEffect(() => setMime(stat.data?.mimeType ?? ''), [stat.data?.mimeType]);
  const failure = update.error ?? restore.error;
  const archived = stat.data?.storageClass === 'archive' || stat.data?.storageClass === 'deep-archive';

  return (
    <Drawer opened={Boolean(objectKey)} onClose={onClose} position="right" size="md" title={<span className="break-all">{key}</span>}>
      <QueryState query={stat} loading="Reading the object…" errorTitle="The object could not be read" />
      {stat.data ? (
        <Stack gap="md">
          <ObjectPreview target={{ accountId, bucket, objectKey: key }} mimeType={stat.data.mimeType} size={stat.data.size} />
          <Facts details={stat.data} />
          <Group gap="xs">
            <Button size="xs" variant="default" onClick={() => onRename(key)}>
              Rename
            </Button>
            <Button size="xs" variant="default" color="red" onClick={() => onDelete(key)}>
              Delete
            </Button>
          </Group>
          <Divider label="Download link" labelPosition="left" />
          <LinkSection accountId={accountId} bucket={bucket} objectKey={key} />
          <Divider label="Process" labelPosition="left" />
          <ProcessSection key={key} accountId={accountId} bucket={bucket} objectKey={key} mimeType={stat.data.mimeType} onOpen={onOpen} />
          <Divider label="Change" labelPosition="left" />
          {failure ? (
            <Text size="sm" c="var(--mantine-color-error)" role="alert">
              {failure.message}
            </Text>
          ) : null}
          <Group align="flex-end" gap="xs">
            <TextInput
              size="xs"
              label="MIME type"
              value={mime}
              onChange={(event) => setMime(event.currentTarget.value)}
              style={{ flex: 1 }}
              spellCheck={false}
            />
            <Button
              size="xs"
              variant="default"
              disabled={mime === stat.data.mimeType}
              loading={update.isPending && update.variables?.mimeType !== undefined}
              onClick={() => update.mutate({ mimeType: mime.trim() })}
            >
              Save type
            </Button>
          </Group>
          <Select
            size="xs"
            label="Storage class"
            data={STORAGE_CLASSES.map((value) => ({ value, label: CLASS_LABEL[value] }))}
            value={stat.data.storageClass}
            allowDeselect={false}
            onChange={(value) => value && value !== stat.data.storageClass && update.mutate({ storageClass: value as StorageClass })}
          />
          <Group align="flex-end" gap="xs">
            <NumberInput
              size="xs"
              label="Delete after days"
              description="0 cancels a scheduled deletion"
              min={0}
              max={36500}
              value={days}
              onChange={setDays}
              style={{ flex: 1 }}
            />
            <Button
              size="xs"
              variant="default"
              onClick={() => update.mutate({ deleteAfterDays: Number(days) })}
              disabled={typeof days !== 'number'}
            >
              Schedule
            </Button>
          </Group>
          {archived ? (
            <Button size="xs" variant="default" loading={restore.isPending} onClick={() => restore.mutate(1)}>
              Restore for 1 day
            </Button>
          ) : null}
        </Stack>
      ) : null}
    </Drawer>
  );
}
