import { eventNamesStream, type MatchableEvent } from './calendar-match';

export interface WindowEvent extends MatchableEvent {
  id: string;
  startMs: number;
  endMs: number;
  isCancelled: boolean;
}

interface CalendarMeeting {
  id: string;
  subject: string | null;
  startMs: number;
  endMs: number;
}

/** A span to record: one meeting or several that overlap or touch once their rolls are added. */
export interface RecordingWindow {
  fromMs: number;
  untilMs: number;
  /** By start time. */
  meetings: CalendarMeeting[];
}

export interface Rolls {
  preRollMs: number;
  postRollMs: number;
}

/**
 * The spans a stream records from calendar events: each event that names the stream and is not
 * cancelled, widened by the rolls, merged where they overlap or touch (back-to-back meetings
 * never stop the recording between them). Sorted by start.
 */
export function recordingWindows(events: readonly WindowEvent[], stream: string, rolls: Rolls): RecordingWindow[] {
  const wanted = events
    .filter((event) => !event.isCancelled && event.endMs > event.startMs && eventNamesStream(event, stream))
    .map((event) => ({
      fromMs: event.startMs - rolls.preRollMs,
      untilMs: event.endMs + rolls.postRollMs,
      meetings: [{ id: event.id, subject: event.subject, startMs: event.startMs, endMs: event.endMs }],
    }))
    .sort((a, b) => a.fromMs - b.fromMs || a.untilMs - b.untilMs);
  const merged: RecordingWindow[] = [];
  for (const window of wanted) {
    const last = merged.at(-1);
    if (last && window.fromMs <= last.untilMs) {
      last.untilMs = Math.max(last.untilMs, window.untilMs);
      last.meetings.push(...window.meetings);
    } else merged.push(window);
  }
  for (const window of merged) window.meetings.sort((a, b) => a.startMs - b.startMs);
  return merged;
}

export interface WindowsState {
  /** Whether recording is wanted at `now`. */
  recording: boolean;
  /** When that changes next; undefined: no window ahead. */
  until?: number;
  /** The window recording now, or the next one. */
  window?: RecordingWindow;
}

/** Whether sorted, merged windows want recording at `now`, until when, and for which window. */
export function windowsAt(windows: readonly RecordingWindow[], now: number): WindowsState {
  const current = windows.find((w) => w.fromMs <= now && now < w.untilMs);
  if (current) return { recording: true, until: current.untilMs, window: current };
  const next = windows.find((w) => w.fromMs > now);
  return next ? { recording: false, until: next.fromMs, window: next } : { recording: false };
}
