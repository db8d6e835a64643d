/** A calendar date in some time zone: month 0-11, as Date.UTC takes it. */
export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

/**
 * Local dates and instants in one IANA time zone, through Intl (daylight saving time included).
 * One per evaluation: it holds its formatter.
 */
export interface ZoneClock {
  /** The local date at an instant (ms since the epoch). */
  dateAt(instant: number): LocalDate;
  /**
   * The instant of `minute` minutes after local midnight of `date` (may be past 1440: the next
   * day). A local time skipped by a clock change comes out as the instant it would have been
   * before the change, so a window that starts in the gap still starts.
   */
  instantOf(date: LocalDate, minute: number): number;
}

export function zoneClock(timeZone: string): ZoneClock {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const wallAsUtc = (instant: number): number => {
    const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((p) => [p.type, Number(p.value)]));
    return Date.UTC(parts['year']!, parts['month']! - 1, parts['day']!, parts['hour']!, parts['minute']!, parts['second']!);
  };
  /** Local wall time minus UTC at an instant, in ms. */
  const offset = (instant: number) => wallAsUtc(instant) - Math.floor(instant / 1000) * 1000;
  return {
    dateAt(instant) {
      const wall = new Date(wallAsUtc(instant));
      return { year: wall.getUTCFullYear(), month: wall.getUTCMonth(), day: wall.getUTCDate() };
    },
    instantOf(date, minute) {
      const wall = Date.UTC(date.year, date.month, date.day, 0, minute);
      // Two rounds: the offset at the first guess may be the other side of a clock change.
      const guess = wall - offset(wall);
      return wall - offset(guess);
    },
  };
}

/** The date `days` after `date` (negative: before), and its weekday, 0 = Monday. */
export function addDays(date: LocalDate, days: number): LocalDate & { weekday: number } {
  const at = new Date(Date.UTC(date.year, date.month, date.day + days));
  return { year: at.getUTCFullYear(), month: at.getUTCMonth(), day: at.getUTCDate(), weekday: (at.getUTCDay() + 6) % 7 };
}

/** The machine's own time zone, as weekly windows are read in it. */
export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
