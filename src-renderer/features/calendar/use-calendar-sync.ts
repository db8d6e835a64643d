import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import type { CalendarSyncStatus } from '@shared/contract/directory';
import { useApi } from '../../api/api-context';
import { callService, serviceFilter, serviceKey } from '../../api/service-query';
import { useServiceEvent } from '../../api/use-service-event';
import { useServiceQuery } from '../../api/use-service-query';

/** Everything read from the local copy and the round history: read again after each round. */
const localCopyReads = () => serviceFilter('calendarSync', ['history', 'eventsInRange', 'searchEvents']);

/**
 * The sync's status as main pushes it (every state change, every page of a round). When a
 * round ends, the history and the local copy are read again.
 */
export function useCalendarStatus() {
  const api = useApi();
  const queryClient = useQueryClient();
  const rounds = useRef<number | undefined>(undefined);
  useServiceEvent(api.calendarSync.onStatus, (status: CalendarSyncStatus) => {
    queryClient.setQueryData(serviceKey('calendarSync', 'status'), status);
    if (rounds.current !== status.rounds || status.state === 'error') void queryClient.invalidateQueries(localCopyReads());
    rounds.current = status.rounds;
  });
  return useServiceQuery('calendarSync', 'status', undefined, { staleTime: Infinity });
}

export function useRoundHistory() {
  return useServiceQuery('calendarSync', 'history', { limit: 100 });
}

export function useEventsInRange(start: Date, end: Date) {
  return useServiceQuery('calendarSync', 'eventsInRange', { start: start.toISOString(), end: end.toISOString() });
}

export function useEventSearch(text: string) {
  return useServiceQuery('calendarSync', 'searchEvents', { text, limit: 200 }, { enabled: text.trim() !== '' });
}

/** Sync now, pause, resume, full resync, or a new window: each answers with the new status. */
export function useSyncAction() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: { kind: 'syncNow' | 'stop' | 'resync' } | { kind: 'start'; start?: string; end?: string }) =>
      action.kind === 'start'
        ? callService(api, 'calendarSync', 'start', action.start && action.end ? { start: action.start, end: action.end } : {})
        : callService(api, 'calendarSync', action.kind),
    onSuccess: (status) => queryClient.setQueryData(serviceKey('calendarSync', 'status'), status),
  });
}
