import type { CalendarEvent } from '@shared/contract/directory';
import type { StoredEvent } from './calendar-store';

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The contract's view of a stored event: a few fields read out, the Graph JSON alongside. */
export function toCalendarEvent(stored: StoredEvent): CalendarEvent {
  const graph = JSON.parse(stored.json) as Record<string, unknown>;
  const location = graph.location as { displayName?: unknown } | null | undefined;
  return {
    id: stored.id,
    subject: text(graph.subject),
    start: new Date(stored.startMs).toISOString(),
    end: new Date(stored.endMs).toISOString(),
    isAllDay: graph.isAllDay === true,
    isCancelled: graph.isCancelled === true,
    location: text(location?.displayName),
    lastModifiedDateTime: stored.lastModified,
    graph,
  };
}
