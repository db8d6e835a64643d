import { badRequest } from './graph-error';

// Graph's patternedRecurrence: which dates a series falls on. Dates are day numbers (days since
// 1970-01-01) so the arithmetic has no time-zone in it; the caller puts the series' start time
// on each date in the series' time zone.

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
type DayOfWeek = (typeof DAYS)[number];
const PATTERNS = ['daily', 'weekly', 'absoluteMonthly', 'relativeMonthly', 'absoluteYearly', 'relativeYearly'] as const;
const RANGES = ['endDate', 'noEnd', 'numbered'] as const;
const INDEXES = ['first', 'second', 'third', 'fourth', 'last'] as const;

export interface Recurrence {
  pattern: {
    type: (typeof PATTERNS)[number];
    interval: number;
    month: number;
    dayOfMonth: number;
    daysOfWeek: DayOfWeek[];
    firstDayOfWeek: DayOfWeek;
    index: (typeof INDEXES)[number];
  };
  range: {
    type: (typeof RANGES)[number];
    startDate: string;
    endDate: string;
    recurrenceTimeZone: string;
    numberOfOccurrences: number;
  };
}

const DAY_MS = 86_400_000;
const NO_DATE = '0001-01-01';
/** No series is expanded past this many steps (a noEnd daily series over 270 years). */
const MAX_STEPS = 100_000;

export const dayNumber = (date: string): number =>
  Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
export const dateOf = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
const weekday = (day: number): number => (((day + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
const daysInMonth = (year: number, month0: number): number => new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();

function isDate(text: unknown): text is string {
  return typeof text === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(text) && dateOf(dayNumber(text)) === text;
}

/** Checks a recurrence from a request body and fills Graph's defaults; throws 400 with what is wrong. */
export function parseRecurrence(input: unknown, defaultTimeZone: string, firstDate: string): Recurrence | null {
  if (input === null || input === undefined) return null;
  const fail = (what: string) => badRequest('ErrorInvalidRequest', `recurrence: ${what}`);
  if (typeof input !== 'object' || Array.isArray(input)) throw fail('expected an object with pattern and range');
  const { pattern, range } = input as { pattern?: Record<string, unknown>; range?: Record<string, unknown> };
  if (!pattern || typeof pattern !== 'object') throw fail('pattern is required');
  if (!range || typeof range !== 'object') throw fail('range is required');
  const type = pattern.type;
  if (!PATTERNS.includes(type as Recurrence['pattern']['type'])) throw fail(`pattern.type must be one of ${PATTERNS.join(', ')}`);
  const interval = pattern.interval ?? 1;
  if (!Number.isInteger(interval) || (interval as number) < 1 || (interval as number) > 999)
    throw fail('pattern.interval must be an integer from 1 to 999');
  const daysOfWeek = (pattern.daysOfWeek ?? []) as unknown[];
  if (!Array.isArray(daysOfWeek) || daysOfWeek.some((d) => !DAYS.includes(d as DayOfWeek)))
    throw fail(`pattern.daysOfWeek must list days among ${DAYS.join(', ')}`);
  const firstDayOfWeek = (pattern.firstDayOfWeek ?? 'sunday') as DayOfWeek;
  if (!DAYS.includes(firstDayOfWeek)) throw fail('pattern.firstDayOfWeek must be a day name');
  const index = (pattern.index ?? 'first') as Recurrence['pattern']['index'];
  if (!INDEXES.includes(index)) throw fail(`pattern.index must be one of ${INDEXES.join(', ')}`);
  const dayOfMonth = pattern.dayOfMonth ?? 0;
  const month = pattern.month ?? 0;
  if (!Number.isInteger(dayOfMonth) || (dayOfMonth as number) < 0 || (dayOfMonth as number) > 31)
    throw fail('pattern.dayOfMonth must be 1-31');
  if (!Number.isInteger(month) || (month as number) < 0 || (month as number) > 12) throw fail('pattern.month must be 1-12');
  if ((type === 'weekly' || type === 'relativeMonthly' || type === 'relativeYearly') && daysOfWeek.length === 0)
    throw fail(`pattern.daysOfWeek is required for ${type as string}`);
  if ((type === 'absoluteMonthly' || type === 'absoluteYearly') && dayOfMonth === 0)
    throw fail(`pattern.dayOfMonth is required for ${type as string}`);
  if ((type === 'absoluteYearly' || type === 'relativeYearly') && month === 0)
    throw fail(`pattern.month is required for ${type as string}`);

  const rangeType = range.type;
  if (!RANGES.includes(rangeType as Recurrence['range']['type'])) throw fail(`range.type must be one of ${RANGES.join(', ')}`);
  const startDate = range.startDate ?? firstDate;
  if (!isDate(startDate)) throw fail('range.startDate must be a date such as 2024-05-01');
  const endDate = range.endDate ?? NO_DATE;
  if (rangeType === 'endDate') {
    if (!isDate(endDate)) throw fail('range.endDate is required for an endDate range');
    if (endDate < startDate) throw fail('range.endDate is before range.startDate');
  }
  const count = range.numberOfOccurrences ?? 0;
  if (rangeType === 'numbered' && (!Number.isInteger(count) || (count as number) < 1))
    throw fail('range.numberOfOccurrences must be a positive integer for a numbered range');
  const zone = typeof range.recurrenceTimeZone === 'string' && range.recurrenceTimeZone !== '' ? range.recurrenceTimeZone : defaultTimeZone;
  return {
    pattern: {
      type: type as Recurrence['pattern']['type'],
      interval: interval as number,
      month: month as number,
      dayOfMonth: dayOfMonth as number,
      daysOfWeek: daysOfWeek as DayOfWeek[],
      firstDayOfWeek,
      index,
    },
    range: {
      type: rangeType as Recurrence['range']['type'],
      startDate,
      endDate: rangeType === 'endDate' ? (endDate as string) : NO_DATE,
      recurrenceTimeZone: zone,
      numberOfOccurrences: rangeType === 'numbered' ? (count as number) : 0,
    },
  };
}

/** The n-th (or last) day of a month whose weekday is among `days`. */
function relativeDay(year: number, month0: number, days: DayOfWeek[], index: Recurrence['pattern']['index']): number | undefined {
  const first = Date.UTC(year, month0, 1) / DAY_MS;
  const matches: number[] = [];
  for (let d = 0; d < daysInMonth(year, month0); d++) if (days.includes(DAYS[weekday(first + d)]!)) matches.push(first + d);
  return index === 'last' ? matches[matches.length - 1] : matches[INDEXES.indexOf(index)];
}

/**
 * The dates of the series, in order, up to and including `untilDay` (and within the range).
 * absoluteMonthly on a day a month lacks (31 in April) falls on the month's last day.
 */
export function seriesDays(r: Recurrence, untilDay: number): number[] {
  const start = dayNumber(r.range.startDate);
  const end = r.range.type === 'endDate' ? dayNumber(r.range.endDate) : Infinity;
  const limit = r.range.type === 'numbered' ? r.range.numberOfOccurrences : Infinity;
  const last = Math.min(untilDay, end);
  const out: number[] = [];
  const take = (day: number | undefined): boolean => {
    if (day === undefined || day < start) return true;
    if (day > last || out.length >= limit) return false;
    out.push(day);
    return true;
  };
  const p = r.pattern;
  const startDate = new Date(start * DAY_MS);
  const y0 = startDate.getUTCFullYear();
  const m0 = startDate.getUTCMonth();
  for (let step = 0; step < MAX_STEPS; step++) {
    if (p.type === 'daily') {
      if (!take(start + step * p.interval)) break;
    } else if (p.type === 'weekly') {
      const first = DAYS.indexOf(p.firstDayOfWeek);
      const weekStart = start - ((weekday(start) - first + 7) % 7) + step * 7 * p.interval;
      if (weekStart > last) break;
      let going = true;
      for (let offset = 0; offset < 7 && going; offset++) {
        const day = weekStart + offset;
        if (p.daysOfWeek.includes(DAYS[weekday(day)]!)) going = take(day);
      }
      if (!going) break;
    } else if (p.type === 'absoluteMonthly' || p.type === 'relativeMonthly') {
      const monthIndex = m0 + step * p.interval;
      const year = y0 + Math.floor(monthIndex / 12);
      const month0 = monthIndex % 12;
      if (Date.UTC(year, month0, 1) / DAY_MS > last) break;
      const day =
        p.type === 'absoluteMonthly'
          ? Date.UTC(year, month0, Math.min(p.dayOfMonth, daysInMonth(year, month0))) / DAY_MS
          : relativeDay(year, month0, p.daysOfWeek, p.index);
      if (!take(day)) break;
    } else {
      const year = y0 + step * p.interval;
      const month0 = p.month - 1;
      if (Date.UTC(year, month0, 1) / DAY_MS > last) break;
      const day =
        p.type === 'absoluteYearly'
          ? Date.UTC(year, month0, Math.min(p.dayOfMonth, daysInMonth(year, month0))) / DAY_MS
          : relativeDay(year, month0, p.daysOfWeek, p.index);
      if (!take(day)) break;
    }
  }
  return out;
}
