import { useQueryClient } from '@tanstack/react-query';
import type { RecordingStatus } from '@shared/contract/recordings';
import { useApi } from '../../api/api-context';
import { serviceFilter, serviceKey } from '../../api/service-query';
import { useServiceEvent } from '../../api/use-service-event';
import { useServiceQuery } from '../../api/use-service-query';
import { useMediaBase } from '../../api/use-media-base';
import { daySpan, dayStartsEndingWith } from './model/day';

/**
 * Every recording's status as main pushes it. A new segment in the bucket (`lastSegment`
 * changes) reads the listings and the usage again, so today's timeline grows as it records.
 */
export function useRecordingStatus() {
  const api = useApi();
  const queryClient = useQueryClient();
  useServiceEvent(api.recordings.onStatus, (statuses: RecordingStatus[]) => {
    const before = queryClient.getQueryData<RecordingStatus[]>(serviceKey('recordings', 'status'));
    queryClient.setQueryData(serviceKey('recordings', 'status'), statuses);
    const lastKey = (list: RecordingStatus[] | undefined) => list?.map((s) => s.lastSegment?.key ?? '').join('|');
    if (lastKey(before) !== lastKey(statuses)) void queryClient.invalidateQueries(serviceFilter('recordings', ['list', 'usage']));
  });
  return useServiceQuery('recordings', 'status', undefined, { staleTime: Infinity });
}

/** The segments of one local day of a stream. */
export function useDaySegments(stream: string, day: string) {
  const { startMs, endMs } = daySpan(day);
  return useServiceQuery('recordings', 'list', { stream, startMs, endMs });
}

/** Bytes in the bucket per day over the `days` days ending with `lastDay`. */
export function useUsage(stream: string, lastDay: string, days: number) {
  return useServiceQuery('recordings', 'usage', { stream, dayStartsMs: dayStartsEndingWith(lastDay, days) });
}

/** Meetings of the synced calendar on that day; nothing is read while the calendar is not synced. */
export function useDayMeetings(day: string) {
  const status = useServiceQuery('calendarSync', 'status');
  const synced = status.data?.target != null;
  const { startMs, endMs } = daySpan(day);
  const events = useServiceQuery(
    'calendarSync',
    'eventsInRange',
    { start: new Date(startMs).toISOString(), end: new Date(endMs).toISOString() },
    { enabled: synced },
  );
  return { synced, events };
}

/**
 * Where the stream's recordings are read from this page: a ticket path on the API's origin (the
 * page's own in a browser, the relay's from the desktop window), or undefined until known.
 */
export function usePlaybackBase(stream: string): string | undefined {
  const base = useMediaBase();
  // A ticket lasts hours: read once per stream, and again after that.
  const ticket = useServiceQuery('recordings', 'playbackTicket', { stream }, { staleTime: 60 * 60_000, gcTime: 60 * 60_000 });
  return base && ticket.data ? `${base}${ticket.data.path}` : undefined;
}

/** `recordings.m3u8` and `recordings.mp4` of a range, under a playback base. */
export function recordingUrl(base: string, kind: 'm3u8' | 'mp4', stream: string, startMs: number, endMs: number): string {
  const query = new URLSearchParams({ src: stream, start: new Date(startMs).toISOString(), end: new Date(endMs).toISOString() });
  return `${base}recordings.${kind}?${query.toString()}`;
}
