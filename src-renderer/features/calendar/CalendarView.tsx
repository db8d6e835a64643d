import { Stack, Title } from '@mantine/core';
import { EmptyState } from '../../ui/EmptyState';
import { PageHeader } from '../../ui/PageHeader';
import { QueryState } from '../../ui/QueryState';
import { ResultError } from '../../ui/ResultError';
import { LocalCopy } from './components/LocalCopy';
import { RoundHistory } from './components/RoundHistory';
import { SyncControls } from './components/SyncControls';
import { SyncStatusPanel } from './components/SyncStatusPanel';
import { useCalendarStatus, useRoundHistory, useSyncAction } from './use-calendar-sync';

/** `#/calendar`: the calendar view kept in sync by delta rounds, its history and its local copy. */
export function CalendarView() {
  const status = useCalendarStatus();
  const history = useRoundHistory();
  const action = useSyncAction();
  return (
    <section aria-labelledby="calendar-title" data-testid="section-calendar">
      <PageHeader
        titleId="calendar-title"
        title="Calendar"
        summary="A calendar view kept in step with Graph by delta rounds: its status, its rounds and the local copy."
        actions={
          status.data ? (
            <SyncControls
              key={status.data.target?.start ?? 'none'}
              status={status.data}
              busy={action.isPending}
              onAction={(a) => action.mutate(a)}
            />
          ) : null
        }
      />
      {action.isError ? <ResultError error={action.error} title="The sync did not do that" /> : null}
      <QueryState query={status} loading="Reading the sync status…" errorTitle="The sync status could not be read">
        {(current) => (
          <Stack gap="md">
            <SyncStatusPanel status={current} />
            {current.target ? (
              <>
                <Title order={2} size="h4">
                  Rounds
                </Title>
                {history.isError ? <ResultError error={history.error} title="The history could not be read" /> : null}
                {history.data ? <RoundHistory rounds={history.data} /> : null}
                <Title order={2} size="h4">
                  Local copy
                </Title>
                <LocalCopy />
              </>
            ) : (
              <EmptyState>
                Nothing is synced yet. Start syncing to keep a local copy of your calendar from 30 days ago to 90 days ahead, or choose the
                window first.
              </EmptyState>
            )}
          </Stack>
        )}
      </QueryState>
    </section>
  );
}
