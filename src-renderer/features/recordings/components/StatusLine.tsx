import { Badge, Group, Text } from '@mantine/core';
import type { RecordingStatus } from '@shared/contract/recordings';
import { formatBytes } from '../../../ui/format';
import { clockOf } from '../model/day';
import { statusText } from '../model/status-text';
import { TONE_COLOR } from './CameraList';

/** One recording's state as main pushes it: state, where it goes, the next change, failing uploads, the spool. */
export function StatusLine({ status }: { status: RecordingStatus }) {
  const text = statusText(status, clockOf);
  return (
    <div className="panel rec-status" role="status" aria-label={`Recording of ${status.stream}`} data-testid="recording-status">
      <Group gap="sm" wrap="wrap">
        <Badge color={TONE_COLOR[text.tone]} variant="dot" size="lg" data-testid="recording-state">
          {text.label}
        </Badge>
        <Text size="sm">
          Into <code>{`${status.account}:${status.bucket}/${status.prefix}`}</code>, schedule {status.schedule}; {status.uploaded} uploaded
          since the start
          {status.spooled > 0 ? `, ${status.spooled} spooled (${formatBytes(status.spooledBytes)})` : ''}.
        </Text>
      </Group>
      {text.details.map((line) => (
        <Text key={line} size="sm" c={text.tone === 'error' ? 'var(--mantine-color-error)' : undefined}>
          {line}
        </Text>
      ))}
    </div>
  );
}
