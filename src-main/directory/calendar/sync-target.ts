import type { SyncTarget } from './sync-state';

const DAY_MS = 86_400_000;

/** What the sync uses for anything a start request leaves out. */
export interface CalendarSyncDefaults {
  /** `me` for the signed-in account, or a user id / userPrincipalName (application sign-in). */
  user: string;
  /** The default window: whole UTC days before and after today. */
  daysBefore: number;
  daysAfter: number;
  intervalSeconds: number;
  pageSize: number;
}

export const DEFAULT_CALENDAR_SYNC: CalendarSyncDefaults = {
  user: 'me',
  daysBefore: 30,
  daysAfter: 90,
  intervalSeconds: 300,
  pageSize: 50,
};

/** A start request the sync cannot follow; the message says what to change. */
export class CalendarSyncInputError extends Error {
  override readonly name = 'CalendarSyncInputError';
}

export interface TargetRequest {
  user?: string;
  start?: string;
  end?: string;
}

function instant(value: string, name: string): number {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new CalendarSyncInputError(`${name} is not a date-time: ${value}`);
  return ms;
}

/**
 * The user and window of a start request. A request without a window reuses the window the user
 * was last synchronised with, so starting again (after a restart) continues from the stored
 * delta state instead of starting a new view; only the very first start takes the default
 * window, aligned to whole UTC days so it is the same all day long.
 */
export function resolveTarget(
  request: TargetRequest,
  defaults: CalendarSyncDefaults,
  now: Date,
  storedWindowOf: (user: string) => { windowStart: string; windowEnd: string } | null,
): SyncTarget {
  const user = (request.user ?? defaults.user).trim();
  if (user === '') throw new CalendarSyncInputError('user must be `me` or a user id');
  if ((request.start === undefined) !== (request.end === undefined)) {
    throw new CalendarSyncInputError('give both start and end of the window, or neither');
  }
  if (request.start !== undefined && request.end !== undefined) {
    const start = instant(request.start, 'start');
    const end = instant(request.end, 'end');
    if (end <= start) throw new CalendarSyncInputError('the window must end after it starts');
    return { user, windowStart: new Date(start).toISOString(), windowEnd: new Date(end).toISOString() };
  }
  const stored = storedWindowOf(user);
  if (stored) return { user, ...stored };
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return {
    user,
    windowStart: new Date(today - defaults.daysBefore * DAY_MS).toISOString(),
    windowEnd: new Date(today + (defaults.daysAfter + 1) * DAY_MS).toISOString(),
  };
}
