import type { CalendarEvent } from '@shared/contract/directory';
import type { DirectoryCalendar } from '../directory/calendar/calendar-capability';
import type { Logger } from '../platform/logger';
import { recordingWindows, type RecordingWindow, type Rolls, type WindowEvent } from './calendar-windows';

/** Meetings looked at ahead of now; rounds (and the recorder's hourly look) bring later ones in. */
const HORIZON_MS = 8 * 86_400_000;

/** What the synced calendar says of one stream now. */
type CalendarRead =
  | { windows: RecordingWindow[]; /** Why the copy may be behind (the sync stopped or failing). */ problem?: string }
  | { /** Why the calendar cannot say anything: the stream stays inactive. */ unavailable: string };

/** The synced calendar as the stream recorders see it. */
export interface CalendarFeed {
  read(stream: string, rolls: Rolls, now: number): CalendarRead;
  /** Called after every round of the sync; returns the unsubscribe function. */
  onChange(listener: () => void): () => void;
  /** Starts the sync when it is stopped (once; `intervalMs` is its round interval then). */
  want(intervalMs: number): void;
}

const NO_CALENDAR =
  'schedule: calendar needs the synced calendar, and there is none: the directory module is off, or no calendar is configured ' +
  '(directory.graph, or directory.emulator.enabled); the stream is not recorded';

const asWindowEvent = (event: CalendarEvent): WindowEvent => ({
  id: event.id,
  subject: event.subject,
  location: event.location,
  categories: event.graph.categories,
  startMs: Date.parse(event.start),
  endMs: Date.parse(event.end),
  isCancelled: event.isCancelled,
});

/**
 * The recordings' view of the directory module's calendar copy (`directoryCalendar`), or of its
 * absence: each read takes the copy as the last round left it, so a moved or cancelled meeting
 * shows at the round's end, when `onChange` listeners hear of it.
 */
export function createCalendarFeed(calendar: DirectoryCalendar | undefined, logger: Logger): CalendarFeed {
  let startProblem: string | undefined;
  let requested = false;
  let pending = false;
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of listeners) listener();
  };
  calendar?.onRound(changed);

  const syncProblem = (): string | undefined => {
    if (startProblem) return startProblem;
    const status = calendar!.status();
    if (status.state === 'stopped' && pending) return undefined;
    if (status.state === 'stopped') return 'the calendar sync is stopped: meetings are as last synced';
    if (status.state === 'error' && status.lastError)
      return `the calendar sync fails (${status.lastError.message}): meetings are as last synced`;
    return undefined;
  };

  return {
    read(stream, rolls, now) {
      if (!calendar) return { unavailable: NO_CALENDAR };
      const events = calendar.eventsInRange(now - rolls.postRollMs, now + HORIZON_MS + rolls.preRollMs);
      const problem = syncProblem();
      return { windows: recordingWindows(events.map(asWindowEvent), stream, rolls), ...(problem ? { problem } : {}) };
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    want(intervalMs) {
      if (!calendar || requested) return;
      requested = true;
      pending = true;
      calendar
        .ensureRunning(Math.max(1, Math.round(intervalMs / 1000)))
        .then((status) => logger.info('recordings follow the synced calendar', { state: status.state, interval_s: status.intervalSeconds }))
        .catch((error: unknown) => {
          startProblem = `the calendar sync cannot start: ${(error as Error).message}`;
          logger.warn(`recordings: ${startProblem}; calendar recordings wait for it`);
        })
        .finally(() => {
          pending = false;
          changed();
        });
    },
  };
}
