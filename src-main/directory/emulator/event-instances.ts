import type { EventProps, StoredEvent } from './event-model';
import { dayNumber, dateOf, seriesDays } from './recurrence';
import { isoSeconds, type TimeZones } from './time-zones';

const DAY_MS = 86_400_000;

/** What a calendar view shows: a single event, or one occurrence/exception of a series. */
export interface EventInstance {
  id: string;
  type: 'singleInstance' | 'occurrence' | 'exception' | 'seriesMaster';
  master: StoredEvent;
  props: EventProps;
  startUtc: number;
  endUtc: number;
  /** Original start of an occurrence or exception (ISO, seconds, Z). */
  originalStart?: string;
  changeKey: string;
  lastModifiedDateTime: string;
}

/** Occurrence ids: the master's id plus the original start, so they stay the same across reads. */
function occurrenceId(masterId: string, originalStart: string): string {
  return `${masterId}_occ${originalStart.replace(/[-:]/g, '')}`;
}

export function parseOccurrenceId(id: string): { masterId: string; originalStart: string } | undefined {
  const m = /^(.+)_occ(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(id);
  if (!m) return undefined;
  return { masterId: m[1]!, originalStart: `${m[2]}-${m[3]}-${m[4]}T${m[5]}:${m[6]}:${m[7]}Z` };
}

function overlaps(start: number, end: number, windowStart: number, windowEnd: number): boolean {
  if (start === end) return start >= windowStart && start < windowEnd;
  return start < windowEnd && end > windowStart;
}

/** The series' zone: the range's recurrenceTimeZone, else the start's time zone. */
function seriesZone(ev: StoredEvent, zones: TimeZones): string {
  return zones.resolve(ev.props.recurrence?.range.recurrenceTimeZone ?? '') ?? zones.resolve(ev.props.start.timeZone) ?? 'UTC';
}

/** The original starts of a series up to `untilDay`, in order (cancelled ones included). */
function originalStarts(ev: StoredEvent, zones: TimeZones, untilDay: number): number[] {
  const recurrence = ev.props.recurrence;
  if (!recurrence) return [];
  const zone = seriesZone(ev, zones);
  const time = zones.toWall(ev.startUtc, zone);
  return seriesDays(recurrence, untilDay).map((day) => {
    const date = dateOf(day);
    return zones.toUtc({ ...time, year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)), day: Number(date.slice(8, 10)) }, zone);
  });
}

function seriesInstance(ev: StoredEvent, original: number): EventInstance {
  const key = isoSeconds(original);
  const exception = ev.exceptions[key];
  const base = { master: ev, originalStart: key, id: occurrenceId(ev.id, key) };
  if (!exception) {
    return {
      ...base,
      type: 'occurrence',
      props: ev.props,
      startUtc: original,
      endUtc: original + (ev.endUtc - ev.startUtc),
      changeKey: ev.changeKey,
      lastModifiedDateTime: ev.lastModifiedDateTime,
    };
  }
  return {
    ...base,
    type: 'exception',
    props: { ...ev.props, ...exception.props, recurrence: null },
    startUtc: exception.startUtc,
    endUtc: exception.endUtc,
    changeKey: exception.changeKey,
    lastModifiedDateTime: exception.lastModifiedDateTime,
  };
}

export function masterInstance(ev: StoredEvent): EventInstance {
  return {
    id: ev.id,
    type: ev.props.recurrence ? 'seriesMaster' : 'singleInstance',
    master: ev,
    props: ev.props,
    startUtc: ev.startUtc,
    endUtc: ev.endUtc,
    changeKey: ev.changeKey,
    lastModifiedDateTime: ev.lastModifiedDateTime,
  };
}

/** The instances of an event that overlap [windowStart, windowEnd), ordered by start. */
export function instancesInWindow(ev: StoredEvent, windowStart: number, windowEnd: number, zones: TimeZones): EventInstance[] {
  if (!ev.props.recurrence) return overlaps(ev.startUtc, ev.endUtc, windowStart, windowEnd) ? [masterInstance(ev)] : [];
  // Two days of margin: an occurrence's date in the series zone can differ from its UTC date.
  const untilDay = Math.floor(windowEnd / DAY_MS) + 2;
  const out: EventInstance[] = [];
  const seen = new Set<string>();
  for (const original of originalStarts(ev, zones, untilDay)) {
    const key = isoSeconds(original);
    seen.add(key);
    if (ev.cancelled.includes(key)) continue;
    const instance = seriesInstance(ev, original);
    if (overlaps(instance.startUtc, instance.endUtc, windowStart, windowEnd)) out.push(instance);
  }
  // An exception moved from a later date into the window.
  for (const key of Object.keys(ev.exceptions)) {
    if (seen.has(key) || ev.cancelled.includes(key)) continue;
    const instance = seriesInstance(ev, Date.parse(key));
    if (overlaps(instance.startUtc, instance.endUtc, windowStart, windowEnd)) out.push(instance);
  }
  return out.sort((a, b) => a.startUtc - b.startUtc || a.id.localeCompare(b.id));
}

/** One occurrence of a series by its original start, if the series has it and it is not deleted. */
export function findOccurrence(ev: StoredEvent, originalStart: string, zones: TimeZones): EventInstance | undefined {
  const wanted = Date.parse(originalStart);
  if (!ev.props.recurrence || Number.isNaN(wanted) || ev.cancelled.includes(originalStart)) return undefined;
  const untilDay = dayNumber(new Date(wanted).toISOString().slice(0, 10)) + 2;
  return originalStarts(ev, zones, untilDay).includes(wanted) ? seriesInstance(ev, wanted) : undefined;
}
