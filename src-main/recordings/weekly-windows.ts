/**
 * Weekly recording windows as the config writes them: `mon-fri 08:00-18:00`, `sat,sun 10:00-14:00`,
 * `daily 22:00-06:00` (an end at or before the start runs into the next day), `fri-mon 00:00-24:00`.
 */
export interface WeeklyWindow {
  /** Days the window starts on, 0 = Monday … 6 = Sunday. */
  days: ReadonlySet<number>;
  /** Minutes after the day's local midnight. */
  startMinute: number;
  /** Minutes after the start day's local midnight: above 1440 for a window that runs past midnight. */
  endMinute: number;
}

const DAY_NAMES = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

export class ScheduleError extends Error {
  override name = 'ScheduleError';
}

const EXAMPLE = 'write days then times, e.g. "mon-fri 08:00-18:00", "sat,sun 10:00-14:00" or "daily 22:00-06:00"';

function dayIndex(name: string, text: string): number {
  const index = DAY_NAMES.indexOf(name.toLowerCase().slice(0, 3) as (typeof DAY_NAMES)[number]);
  // Full names too (monday), but nothing that only starts like one (monkey).
  const full = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'][index];
  if (index < 0 || (name.length > 3 && name.toLowerCase() !== full))
    throw new ScheduleError(`"${text}": ${name} is not a day (mon, tue, wed, thu, fri, sat, sun)`);
  return index;
}

function parseDays(part: string, text: string): Set<number> {
  if (/^(daily|every ?day|\*)$/i.test(part)) return new Set([0, 1, 2, 3, 4, 5, 6]);
  const days = new Set<number>();
  for (const item of part.split(',')) {
    const [from, to, ...rest] = item.split('-');
    if (!from || rest.length > 0) throw new ScheduleError(`"${text}": "${item}" is not a day or a range of days; ${EXAMPLE}`);
    const first = dayIndex(from, text);
    const last = to === undefined ? first : dayIndex(to, text);
    // A range may wrap the week: fri-mon is Friday to Monday.
    for (let day = first; ; day = (day + 1) % 7) {
      days.add(day);
      if (day === last) break;
    }
  }
  return days;
}

function parseTime(value: string, text: string, allowEndOfDay: boolean): number {
  const match = /^(\d{1,2}):(\d{2})$/.exec(value);
  const hours = Number(match?.[1]);
  const minutes = Number(match?.[2]);
  const valid = match && minutes < 60 && (hours < 24 || (allowEndOfDay && hours === 24 && minutes === 0));
  if (!valid) throw new ScheduleError(`"${text}": ${value} is not a time of day (00:00 to ${allowEndOfDay ? '24:00' : '23:59'})`);
  return hours * 60 + minutes;
}

/** One window; throws ScheduleError saying what is wrong with the text. */
export function parseWeeklyWindow(text: string): WeeklyWindow {
  const match = /^\s*(\S+(?:\s*,\s*\S+)*)\s+(\S+)\s*-\s*(\S+)\s*$/.exec(text);
  if (!match) throw new ScheduleError(`"${text}" is not a weekly window: ${EXAMPLE}`);
  const days = parseDays(match[1]!.replace(/\s+/g, ''), text);
  const start = parseTime(match[2]!, text, false);
  const end = parseTime(match[3]!, text, true);
  if (end === start) throw new ScheduleError(`"${text}" starts and ends at the same time; for whole days write 00:00-24:00`);
  return { days, startMinute: start, endMinute: end > start ? end : end + 1440 };
}
