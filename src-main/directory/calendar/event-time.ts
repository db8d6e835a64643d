/**
 * Times of Graph events as UTC instants. A calendarView read without `Prefer: outlook.timezone`
 * answers start/end in UTC (`{dateTime: "2025-03-01T10:00:00.0000000", timeZone: "UTC"}`), which
 * is what the sync asks for; an IANA zone is converted too, so a reply in another zone is not
 * misplaced by hours.
 */

export interface GraphDateTimeTimeZone {
  dateTime: string;
  timeZone?: string | null;
}

const UTC_NAMES = new Set(['utc', 'etc/utc', 'gmt', 'etc/gmt', 'z', 'coordinated universal time']);
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?$/;
const WITH_OFFSET = /(Z|[+-]\d{2}:\d{2})$/i;

/** Offset of `timeZone` from UTC at `utcMs`, in ms (positive east of Greenwich). */
function zoneOffsetMs(timeZone: string, utcMs: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(utcMs));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/** The instant of a Graph dateTimeTimeZone, in ms since the epoch; null when it cannot be placed. */
export function graphDateTimeToUtcMs(value: GraphDateTimeTimeZone | null | undefined): number | null {
  if (!value || typeof value.dateTime !== 'string') return null;
  if (WITH_OFFSET.test(value.dateTime)) {
    const ms = Date.parse(value.dateTime);
    return Number.isNaN(ms) ? null : ms;
  }
  const m = LOCAL_DATE_TIME.exec(value.dateTime);
  if (!m) return null;
  const fraction = Number(((m[7] ?? '') + '000').slice(0, 3));
  const wall = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0), fraction);
  const zone = (value.timeZone ?? 'UTC').trim();
  if (UTC_NAMES.has(zone.toLowerCase())) return wall;
  try {
    // Two passes settle the offset next to a daylight-saving switch.
    const first = wall - zoneOffsetMs(zone, wall);
    return wall - zoneOffsetMs(zone, first);
  } catch {
    return null; // not an IANA zone (e.g. a Windows zone name): the caller treats it as unplaceable
  }
}

/**
 * Whether an event belongs to the calendar view of a window, as calendarView decides: it ends
 * after the window starts and starts before the window ends. A zero-length event sits at one
 * instant and belongs when that instant is inside [start, end).
 */
export function overlapsWindow(startMs: number, endMs: number, windowStartMs: number, windowEndMs: number): boolean {
  if (endMs <= startMs) return startMs >= windowStartMs && startMs < windowEndMs;
  return startMs < windowEndMs && endMs > windowStartMs;
}
