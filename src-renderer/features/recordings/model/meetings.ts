import type { CalendarEvent } from '@shared/contract/directory';
import type { Span } from './timeline';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether a meeting names the camera, as `schedule: calendar` reads meetings: its location or
 * subject holds the stream's name as a word, or its categories hold `record:<stream>`.
 */
export function namesCamera(event: CalendarEvent, stream: string): boolean {
  const word = new RegExp(`(^|[^\\p{L}\\p{N}_-])${escape(stream)}($|[^\\p{L}\\p{N}_-])`, 'iu');
  if (word.test(event.location ?? '') || word.test(event.subject ?? '')) return true;
  const categories = event.graph.categories;
  return Array.isArray(categories) && categories.some((c) => typeof c === 'string' && c.toLowerCase() === `record:${stream.toLowerCase()}`);
}

/** The day's meetings on the timeline: cancelled ones left out, each marked when it names the camera. */
export function meetingsOf(
  events: readonly CalendarEvent[],
  stream: string,
): Array<Span & { event: CalendarEvent; ofThisCamera: boolean }> {
  return events
    .filter((event) => !event.isCancelled)
    .map((event) => ({ event, startMs: Date.parse(event.start), endMs: Date.parse(event.end), ofThisCamera: namesCamera(event, stream) }))
    .filter((meeting) => Number.isFinite(meeting.startMs) && Number.isFinite(meeting.endMs));
}
