import { Group, Progress, Stack, Text } from '@mantine/core';
import type { BatchStatus } from '@shared/contract/storage';

const STATE_TEXT = { listing: 'Listing…', running: 'Working…', done: 'Done', failed: 'Finished with errors' } as const;

/** Deletes, moves, copies and renames under way or just finished, with their progress. */
export function BatchPanel({ batches }: { batches: BatchStatus[] }) {
  const shown = batches.slice(0, 5);
  if (shown.length === 0) return null;
  return (
    <section aria-label="Operations" className="batch-panel" data-testid="batch-panel">
      <Stack gap={8}>
        {shown.map((batch) => {
          const finished = batch.done + batch.failed;
          const percent = batch.total > 0 ? (finished / batch.total) * 100 : batch.state === 'done' ? 100 : 0;
          return (
            <div key={batch.id} data-batch-state={batch.state}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm" fw={500} className="cell-ellipsis">
                  {batch.title}
                </Text>
                <Text size="sm" c={batch.state === 'failed' ? 'var(--mantine-color-error)' : 'dimmed'} style={{ whiteSpace: 'nowrap' }}>
                  {STATE_TEXT[batch.state]} · {finished.toLocaleString('en-US')} of {batch.total.toLocaleString('en-US')}
                  {batch.failed > 0 ? ` · ${batch.failed.toLocaleString('en-US')} failed` : ''}
                </Text>
              </Group>
              <Progress
                value={percent}
                size="sm"
                color={batch.state === 'failed' ? 'red' : undefined}
                aria-label={`${batch.title}: progress`}
              />
              {batch.errors.slice(0, 3).map((error) => (
                <Text key={error.key + error.message} size="xs" c="var(--mantine-color-error)">
                  {error.key ? `${error.key}: ` : ''}
                  {error.message}
                </Text>
              ))}
            </div>
          );
        })}
      </Stack>
    </section>
  );
}
