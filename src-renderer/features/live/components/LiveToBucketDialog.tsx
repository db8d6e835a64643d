import { Anchor, Button, Group, Modal, NumberInput, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { CLIP_SECONDS } from '@shared/contract/recordings';
import { printRoute } from '@renderer/app/routes';
import { usePreferences } from '@renderer/api/use-preferences';
import { useServiceMutation, useServiceQuery } from '@renderer/api/use-service-query';
import { CLIP_PRESETS, clipLengthNote, clipSeconds } from '../model/clip-length';

export type LiveToBucketKind = 'snapshot' | 'clip';

const TITLE: Record<LiveToBucketKind, string> = {
  snapshot: 'Snapshot to bucket',
  clip: 'Clip the last N seconds to bucket',
};

/**
 * Sends a live stream's current picture, or its last N seconds, into a bucket as an upload of
 * the transfer panel. A recorded stream's go into its recording's bucket; for any other the
 * user picks one (the last one used comes first).
 */
export function LiveToBucketDialog({ stream, kind, onClose }: { stream: string; kind: LiveToBucketKind; onClose(): void }) {
  const buffer = useServiceQuery('recordings', 'liveBuffer', { stream }, { staleTime: 0, gcTime: 0 });
  const remembered = usePreferences().data?.liveToBucket;
  const [accountId, setAccountId] = useState(remembered?.accountId ?? 'local');
  const [bucket, setBucket] = useState<string | null>(remembered?.bucket ?? null);
  const [length, setLength] = useState<string | number>(10);
  const recording = buffer.data?.recording;
  const accounts = useServiceQuery('storage', 'listAccounts', undefined, { enabled: buffer.isSuccess && !recording });
  const buckets = useServiceQuery('storage', 'listBuckets', { accountId }, { enabled: buffer.isSuccess && !recording });
  const remember = useServiceMutation('preferences', 'setLiveToBucket');
  const done = (answer: { key: string; bucket: string }, what: string) => {
    if (!recording) remember.mutate({ accountId, bucket: answer.bucket });
    notifications.show({
      title: `${what} of ${stream} queued for upload`,
      message: (
        <>
          {answer.bucket}/{answer.key}. Follow it under <Anchor href={printRoute({ section: 'transfers' })}>Transfers</Anchor>.
        </>
      ),
    });
    onClose();
  };
  const snapshot = useServiceMutation('recordings', 'snapshotToBucket', { onSuccess: (a) => done(a, 'A snapshot') });
  const clip = useServiceMutation('recordings', 'clipToBucket', {
    onSuccess: (a) => done(a, `A clip of ${a.seconds.toFixed(1)} s`),
  });
  const sending = kind === 'clip' ? clip : snapshot;
  const parsed = clipSeconds(length);
  const nothingBuffered = kind === 'clip' && buffer.isSuccess && !recording && buffer.data.memorySeconds === 0;
  const ready = buffer.isSuccess && (recording || bucket) && !('error' in parsed && kind === 'clip') && !nothingBuffered;

  const send = () => {
    const target = { stream, ...(recording ? {} : { accountId, bucket: bucket ?? undefined }) };
    if (kind === 'snapshot') snapshot.mutate(target);
    else if ('seconds' in parsed) clip.mutate({ ...target, seconds: parsed.seconds });
  };

  return (
    <Modal opened onClose={onClose} title={`${TITLE[kind]}: ${stream}`} centered size="lg">
      <Stack gap="sm">
        {kind === 'clip' ? (
          <>
            <Group align="end" gap="sm">
              <SegmentedControl
                aria-label="Clip length"
                value={CLIP_PRESETS.map(String).includes(String(length)) ? String(length) : ''}
                onChange={(value) => setLength(Number(value))}
                data={CLIP_PRESETS.map((s) => ({ value: String(s), label: `${s} s` }))}
              />
              <NumberInput
                label="Seconds"
                value={length}
                onChange={setLength}
                min={CLIP_SECONDS.min}
                max={CLIP_SECONDS.max}
                w={120}
                error={'error' in parsed ? parsed.error : undefined}
              />
            </Group>
            <Text size="sm">{clipLengthNote(stream, !!recording, buffer.data?.memorySeconds)}</Text>
          </>
        ) : null}
        {recording ? (
          <Text size="sm">
            {stream} is recorded: this goes into its recording&apos;s bucket <strong>{recording.bucket}</strong> (account{' '}
            {recording.account}), under {recording.prefix}
            {kind === 'clip' ? 'clips' : 'snapshots'}/{stream}/.
          </Text>
        ) : buffer.isSuccess ? (
          <Group grow>
            <Select
              label="Storage account"
              value={accountId}
              onChange={(value) => {
                if (!value) return;
                setAccountId(value);
                setBucket(null);
              }}
              data={(accounts.data ?? [{ id: 'local', name: 'local' }]).map((a) => ({ value: a.id, label: a.name }))}
              allowDeselect={false}
            />
            <Select
              label="Bucket"
              placeholder={buckets.isPending ? 'Loading buckets…' : 'Choose a bucket'}
              value={bucket}
              onChange={setBucket}
              data={(buckets.data ?? []).map((b) => b.name)}
              error={buckets.isError ? buckets.error.message : undefined}
              searchable
            />
          </Group>
        ) : null}
        {buffer.isError ? (
          <Text size="sm" c="var(--mantine-color-error)" role="alert">
            {buffer.error.message}
          </Text>
        ) : null}
        {sending.isError ? (
          <Text size="sm" c="var(--mantine-color-error)" role="alert">
            {sending.error.message}
          </Text>
        ) : null}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={send} loading={sending.isPending} disabled={!ready}>
            {kind === 'clip' ? 'Clip to bucket' : 'Snapshot to bucket'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
