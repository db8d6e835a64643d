import { Badge, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { keyStem, processingCommand, PROCESSING_PRESETS } from '@shared/contract/processing';
import { ResultError } from '@renderer/ui/ResultError';
import { useProcessingJobs, useStartProcessing } from '../use-processing';

const CUSTOM = 'custom';
const STATE_TEXT = { waiting: 'Waiting', processing: 'Processing', done: 'Done', failed: 'Failed' } as const;
const STATE_COLOR = { waiting: 'gray', processing: 'blue', done: 'green', failed: 'red' } as const;

interface ProcessForm {
  choice: string;
  command: string;
  saveAs: string;
  touched: boolean;
}

/** The form as a choice starts it: a preset's command and the key it suggests, or an empty custom command. */
function formFor(choice: string, objectKey: string): ProcessForm {
  const preset = PROCESSING_PRESETS.find((p) => p.id === choice);
  const stem = keyStem(objectKey);
  return { choice, command: preset?.command ?? '', saveAs: preset ? preset.output(stem) : `${stem}-processed`, touched: false };
}

/**
 * Persistent processing of one object: a preset for videos or a typed command, the key the
 * result is saved as, and the jobs of this object followed until they end. The form belongs to
 * one object: the caller keys it by the object, so another object starts a fresh one.
 */
export function ProcessSection({
  accountId,
  bucket,
  objectKey,
  mimeType,
  onOpen,
}: {
  accountId: string;
  bucket: string;
  objectKey: string;
  mimeType: string;
  onOpen(key: string): void;
}) {
  const video = mimeType.startsWith('video/');
  const [form, setForm] = useState(() => formFor(video ? 'mp4' : CUSTOM, objectKey));
  const { choice, command, saveAs, touched } = form;
  const change = (fields: Partial<ProcessForm>) => setForm((old) => ({ ...old, ...fields }));
  const start = useStartProcessing();
  const jobs = useProcessingJobs();
  const mine = useMemo(
    () => (jobs.data ?? []).filter((j) => j.accountId === accountId && j.bucket === bucket && j.key === objectKey),
    [jobs.data, accountId, bucket, objectKey],
  );
  const checked = processingCommand.safeParse(command);
  const commandError = touched && !checked.success ? checked.error.issues[0]?.message : undefined;
  const saveAsError = touched && saveAs.trim() === '' ? 'name the result' : undefined;

  const run = () => {
    change({ touched: true });
    if (!checked.success || saveAs.trim() === '') return;
    start.mutate({ accountId, bucket, key: objectKey, command: checked.data, saveAs: { bucket, key: saveAs.trim() } });
  };

  return (
    <section aria-label="Processing">
      <Stack gap="xs">
        <Select
          label="Make"
          size="xs"
          allowDeselect={false}
          value={choice}
          onChange={(value) => value && value !== choice && setForm(formFor(value, objectKey))}
          data={[
            ...(video ? PROCESSING_PRESETS.map((p) => ({ value: p.id, label: p.label })) : []),
            { value: CUSTOM, label: 'Custom command…' },
          ]}
        />
        <TextInput
          label="Command"
          size="xs"
          value={command}
          readOnly={choice !== CUSTOM}
          placeholder="avthumb/mp4/s/1280x720"
          error={commandError}
          onChange={(event) => change({ command: event.currentTarget.value })}
          className="mono-input"
        />
        <TextInput
          label={`Save as (in ${bucket})`}
          size="xs"
          value={saveAs}
          error={saveAsError}
          onChange={(event) => change({ saveAs: event.currentTarget.value })}
        />
        <Group>
          <Button size="xs" leftSection={<IconPlayerPlay size={16} />} loading={start.isPending} onClick={run}>
            Run
          </Button>
        </Group>
        {start.isError ? <ResultError error={start.error} title="The processing did not start" /> : null}
        {mine.map((job) => (
          <Group key={job.id} justify="space-between" gap="xs" wrap="nowrap" data-testid="processing-job" data-state={job.state}>
            <div style={{ minWidth: 0 }}>
              <Text size="xs" className="cell-ellipsis" ff="monospace">
                {job.command} → {job.saveAs.key}
              </Text>
              {job.error ? (
                <Text size="xs" c="var(--mantine-color-error)">
                  {job.error}
                </Text>
              ) : null}
            </div>
            <Group gap={6} wrap="nowrap">
              <Badge size="sm" variant="dot" color={STATE_COLOR[job.state]}>
                {STATE_TEXT[job.state]}
              </Badge>
              {job.state === 'done' && job.saveAs.bucket === bucket ? (
                <Button size="compact-xs" variant="default" onClick={() => onOpen(job.saveAs.key)}>
                  Open result
                </Button>
              ) : null}
            </Group>
          </Group>
        ))}
      </Stack>
    </section>
  );
}
