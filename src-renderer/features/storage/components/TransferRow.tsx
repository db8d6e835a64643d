import { ActionIcon, Anchor, Badge, Group, Progress, Text, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { IconDownload, IconPlayerPause, IconPlayerPlay, IconRefresh, IconUpload, IconX } from '@tabler/icons-react';
import type { TransferState, TransferStatus } from '@shared/contract/transfers';
import { formatBytes, formatDuration } from '@renderer/ui/format';
import { matchChosenFile } from '../model/resume-upload';
import { etaOf, progressOf } from '../model/transfer-totals';
import { ChooseFileAgain } from './ChooseFileAgain';

export type TransferAction = 'pause' | 'resume' | 'cancel' | 'retry';

const STATE_TEXT: Record<TransferState, string> = {
  receiving: 'Reading the file',
  queued: 'Waiting',
  running: 'Transferring',
  paused: 'Paused',
  done: 'Done',
  failed: 'Failed',
  canceled: 'Canceled',
};
const STATE_COLOR: Partial<Record<TransferState, string>> = { running: 'blue', done: 'green', failed: 'red', paused: 'yellow' };

/** What the row says under the name: where the file goes, and how far it is. */
function detailOf(t: TransferStatus, needsFile: boolean): string {
  const where = t.kind === 'upload' ? `to kodo://${t.bucket}/${t.key}` : `to ${t.localPath ?? ''}`;
  if (needsFile) return `${formatBytes(t.received)} of ${formatBytes(t.size)} already with the console · ${where}`;
  if (t.state === 'done') return `${formatBytes(t.size)} ${where}${t.etag ? ` · etag ${t.etag}` : ''}`;
  if (t.state === 'receiving') return `${formatBytes(t.received)} of ${formatBytes(t.size)} read by the console · ${where}`;
  const eta = etaOf(t);
  const speed =
    t.state === 'running' ? ` · ${formatBytes(t.bytesPerSecond)}/s${eta !== undefined ? ` · ${formatDuration(eta)} left` : ''}` : '';
  return `${formatBytes(t.transferred)} of ${formatBytes(t.size)}${speed} · ${where}`;
}

export interface TransferRowProps {
  transfer: TransferStatus;
  onAction(action: TransferAction): void;
  saveUrl?: string | undefined;
  /** A browser upload whose file this page no longer holds (reloaded): it waits for the user. */
  needsFile?: boolean;
  onChooseAgain?(file: File): void;
  choosing?: boolean;
}

/**
 * One transfer: direction, name, its progress bar, speed and ETA, and what can be done with it.
 * `saveUrl`: where a browser fetches its own copy of a finished download (the console may run
 * on another machine); absent in the desktop app, which wrote the file on this machine.
 */
export function TransferRow({ transfer: t, onAction, saveUrl, needsFile = false, onChooseAgain, choosing = false }: TransferRowProps) {
  const [refusal, setRefusal] = useState<string>();
  const percent = Math.round(progressOf(t) * 1000) / 10;
  const actions: Array<{ action: TransferAction; label: string; icon: typeof IconX }> = [];
  if (!needsFile && (t.state === 'running' || t.state === 'queued' || t.state === 'receiving'))
    actions.push({ action: 'pause', label: 'Pause', icon: IconPlayerPause });
  if (!needsFile && t.state === 'paused') actions.push({ action: 'resume', label: 'Resume', icon: IconPlayerPlay });
  if (t.state === 'failed' || (t.state === 'canceled' && t.kind === 'download'))
    actions.push({ action: 'retry', label: 'Retry', icon: IconRefresh });
  if (t.state !== 'done' && t.state !== 'canceled') actions.push({ action: 'cancel', label: 'Cancel', icon: IconX });
  const Direction = t.kind === 'upload' ? IconUpload : IconDownload;

  return (
    <div className="transfer-row" role="listitem" aria-label={t.name} data-state={needsFile ? 'needs-file' : t.state} data-kind={t.kind}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <Direction size={18} aria-label={t.kind === 'upload' ? 'Upload' : 'Download'} style={{ flexShrink: 0, marginTop: 2 }} />
        <div style={{ flex: 1, minWidth: 0 }}>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="sm" fw={500} className="cell-ellipsis" title={t.name}>
              {t.name}
            </Text>
            <Badge size="sm" variant="dot" color={needsFile ? 'orange' : (STATE_COLOR[t.state] ?? 'gray')} style={{ flexShrink: 0 }}>
              {needsFile ? 'Needs the file' : STATE_TEXT[t.state]}
            </Badge>
          </Group>
          <Progress
            value={percent}
            size="sm"
            mt={4}
            mb={4}
            color={t.state === 'failed' ? 'red' : t.state === 'done' ? 'green' : undefined}
            aria-label={`Progress of ${t.name}`}
          />
          <Text size="xs" c="dimmed" className="cell-ellipsis" data-testid="transfer-detail">
            {detailOf(t, needsFile)}
          </Text>
          {needsFile ? (
            <Text size="xs" fw={500} className="cell-ellipsis" role="status" title={refusal}>
              {refusal ?? 'The console can no longer read this file: choose it again to continue.'}
            </Text>
          ) : null}
          {saveUrl && t.kind === 'download' && t.state === 'done' ? (
            <Anchor size="xs" href={saveUrl} download aria-label={`Save ${t.name} to this computer`}>
              Save to this computer
            </Anchor>
          ) : null}
          {t.error ? (
            <Text size="xs" c="var(--mantine-color-error)" role="status">
              {t.error}
            </Text>
          ) : null}
        </div>
        <Group gap={2} wrap="nowrap" style={{ flexShrink: 0 }}>
          {needsFile && onChooseAgain ? (
            <ChooseFileAgain
              name={t.name}
              busy={choosing}
              onChosen={(file) => {
                const match = matchChosenFile(t, file);
                setRefusal(match.ok ? undefined : match.problem);
                if (match.ok) onChooseAgain(file);
              }}
            />
          ) : null}
          {actions.map(({ action, label, icon: Icon }) => (
            <Tooltip key={action} label={label}>
              <ActionIcon variant="subtle" color="gray" aria-label={`${label} ${t.name}`} onClick={() => onAction(action)}>
                <Icon size={16} />
              </ActionIcon>
            </Tooltip>
          ))}
        </Group>
      </Group>
    </div>
  );
}
