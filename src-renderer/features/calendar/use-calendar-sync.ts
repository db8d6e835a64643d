import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import type { CalendarSyncStatus } from '../../../src-shared/contract/directory';
import { unwrap } from '../../../src-shared/contract/result';
import { useApi } from '../../api/api-context';
import { queryKeys } from '../../api/query-keys';
import { useServiceEvent } from '../../api/use-service-event';

/**
 * The sync's status as main pushes it (every state change, every page of a round). When a
 * round ends, the history and the local copy are read again.
 */
export function useCalendarStatus() {
  const api = useApi();
  const queryClient = useQueryClient();
  const rounds = useRef<number | undefined>(undefined);
  useServiceEvent(api.calendarSync.onStatus, (status: CalendarSyncStatus) => {
    queryClient.setQueryData(queryKeys.calendarStatus, status);
    if (rounds.current !== status.rounds || status.state === 'error') void queryClient.invalidateQueries({ queryKey: queryKeys.calendarCopy });
    rounds.current = status.rounds;
  });
  return useQuery({ queryKey: queryKeys.calendarStatus, queryFn: async () => unwrap(await api.calendarSync.status()), staleTime: Infinity });
}

export function useRoundHistory() {
  const api = useApi();
  return useQuery({ queryKey: [...queryKeys.calendarCopy, 'history'], queryFn: async () => unwrap(await api.calendarSync.history({ limit: 100 })) });
}

export function useEventsInRange(start: Date, end: Date) {
  const api = useApi();
  return useQuery({
    queryKey: [...queryKeys.calendarCopy, 'range', start.toISOString(), end.toISOString()],
    queryFn: async () => unwrap(await api.calendarSync.eventsInRange({ start: start.toISOString(), end: end.toISOString() })),
  });
}

export function useEventSearch(text: string) {
  const api = useApi();
  return useQuery({
    queryKey: [...queryKeys.calendarCopy, 'search', text],
    queryFn: async () => unwrap(await api.calendarSync.searchEvents({ text, limit: 200 })),
    enabled: text.trim() !== '',
  });
}

/** Sync now, pause, resume, full resync, or a new window: each answers with the new status. */
export function useSyncAction() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (action: { kind: 'syncNow' | 'stop' | 'resync' } | { kind: 'start'; start?: string; end?: string }) => {
      const sync = api.calendarSync;
      if (action.kind === 'start') return unwrap(await sync.start(action.start && action.end ? { start: action.start, end: action.end } : {}));
      return unwrap(await sync[action.kind]());
    },
    onSuccess: (status) => queryClient.setQueryData(queryKeys.calendarStatus, status),
  });
}
