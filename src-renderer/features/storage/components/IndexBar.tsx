import { Button, Group, Progress, Text } from '@mantine/core';
import { IconRefresh, IconSum } from '@tabler/icons-react';
import type { IndexStatus } from '@shared/contract/storage';
import { describeIndex } from '../model/index-progress';

/** The folder's real counts from the local index, with its progress while the listing runs. */
export function IndexBar({ status, onIndex, busy }: { status: IndexStatus | undefined; onIndex(): void; busy: boolean }) {
  const { text, percent } = describeIndex(status);
  const state = status?.state ?? 'none';
  return (
    <div className="index-bar" data-testid="index-bar" data-state={state}>
      <Group justify="space-between" gap="sm" wrap="nowrap">
        <Text size="sm" role="status" aria-live="polite" data-testid="index-text">
          {text}
        </Text>
        {state !== 'running' ? (
          <Button
            size="compact-sm"
            variant="default"
            leftSection={state === 'none' ? <IconSum size={14} /> : <IconRefresh size={14} />}
            onClick={onIndex}
            loading={busy}
          >
            {state === 'none' ? 'Count' : state === 'failed' ? 'Continue' : 'Refresh counts'}
          </Button>
        ) : null}
      </Group>
      {percent !== undefined ? <Progress value={percent} size="sm" mt={6} aria-label="Indexing progress" animated /> : null}
    </div>
  );
}
