import { Badge, Group, Progress, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { CalendarSyncStatus } from '@shared/contract/directory';
import { roundCountsText, roundKindText, stateLabel, untilText } from '../model/sync-status-text';

const STATE_COLOR = { syncing: 'blue', idle: 'green', error: 'red', stopped: 'gray' } as const;
const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** Who is synced over which window, the state, the round running or the last one, and errors. */
export function SyncStatusPanel({ status }: { status: CalendarSyncStatus }) {
  // The countdown to the next round moves on its own.
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const next = untilText(status.nextRoundAt, now);
  const current = status.currentRound;

  return (
    <section aria-label="Sync status" className="panel" data-testid="sync-status" data-state={status.state} data-rounds={status.rounds}>
      <Stack gap={6}>
        <Group justify="space-between">
          <Group gap="xs">
            <Badge variant="dot" color={STATE_COLOR[status.state]} size="lg">
              {stateLabel(status)}
            </Badge>
            {next && status.state !== 'syncing' ? <Text size="sm">next round {next}</Text> : null}
          </Group>
          <Text size="sm" data-testid="events-stored">
            {status.eventsStored.toLocaleString('en-US')} {status.eventsStored === 1 ? 'event' : 'events'} in the local copy
          </Text>
        </Group>
        {status.target ? (
          <Text size="sm">
            Calendar of <strong>{status.target.user}</strong> from {dayFormat.format(Date.parse(status.target.start))} to{' '}
            {dayFormat.format(Date.parse(status.target.end))} · every {status.intervalSeconds} s · {status.pageSize} per page
          </Text>
        ) : null}
        {current ? (
          <div data-testid="current-round">
            <Progress value={100} animated striped size="sm" aria-label="Round in progress" />
            <Text size="sm" mt={4}>
              {roundKindText(current)} round: {current.received.toLocaleString('en-US')} entries read · {roundCountsText(current)}
            </Text>
          </div>
        ) : null}
        {status.lastRound ? (
          <Text size="sm" data-testid="last-round">
            Last round {timeFormat.format(Date.parse(status.lastRound.startedAt))} ({roundKindText(status.lastRound)}),{' '}
            {Math.round(status.lastRound.durationMs)} ms: {roundCountsText(status.lastRound)}
          </Text>
        ) : null}
        {status.lastError && status.state === 'error' ? (
          <Text size="sm" c="var(--mantine-color-error)" role="alert">
            {status.lastError.code ? `${status.lastError.code}: ` : ''}
            {status.lastError.message}
            {next ? ` · retried ${next}` : ''}
          </Text>
        ) : null}
        {status.throttled > 0 ? (
          <Text size="xs" c="dimmed">
            {status.throttled} requests were throttled (429/503) and retried.
          </Text>
        ) : null}
      </Stack>
    </section>
  );
}
