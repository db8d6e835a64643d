import type { WeeklyWindow } from './weekly-windows';
import { addDays, zoneClock } from './zone-time';

export interface ScheduleState {
  /** Whether recording is wanted now. */
  recording: boolean;
  /** When that changes next (ms since the epoch); undefined: never. */
  until?: number;
}

export interface ScheduleOptions {
  /** The zone the windows' times are in (the machine's). */
  timeZone: string;
  /** Recording starts this long before a window opens ... */
  preRollMs: number;
  /** ... and stops this long after it closes. */
  postRollMs: number;
}

/** Days looked at around now: a window lasts under two days, the next one starts within a week. */
const DAYS_BEFORE = 3;
const DAYS_AFTER = 9;

/**
 * Whether weekly windows want recording at `now`, and until when. Windows that overlap or
 * touch (with their rolls) are one span, so `mon-fri 08:00-12:00` and `mon-fri 12:00-18:00`
 * never stop the recording at noon. A span that reaches past the days looked at ends there;
 * asking again then says it goes on.
 */
export function scheduleAt(windows: readonly WeeklyWindow[], now: number, options: ScheduleOptions): ScheduleState {
  const clock = zoneClock(options.timeZone);
  const today = clock.dateAt(now);
  const spans: Array<[number, number]> = [];
  for (let offset = -DAYS_BEFORE; offset <= DAYS_AFTER; offset++) {
    const date = addDays(today, offset);
    for (const window of windows) {
      if (!window.days.has(date.weekday)) continue;
      spans.push([
        clock.instantOf(date, window.startMinute) - options.preRollMs,
        clock.instantOf(date, window.endMinute) + options.postRollMs,
      ]);
    }
  }
  spans.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [start, end] of spans) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  const current = merged.find(([start, end]) => start <= now && now < end);
  if (current) return { recording: true, until: current[1] };
  const next = merged.find(([start]) => start > now);
  return next ? { recording: false, until: next[0] } : { recording: false };
}
