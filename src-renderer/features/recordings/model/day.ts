import type { Span } from './timeline';

const DAY_KEY = /^(\d{4})-(\d{2})-(\d{2})$/;

const pad = (n: number) => String(n).padStart(2, '0');

/** The viewer's local day of a time, as the route spells it: `2026-11-27`. */
export const dayKeyOf = (ms: number): string => {
  const date = new Date(ms);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
};

/** Local midnight of `2026-11-27` plus `offset` days (a day of 23 or 25 hours stays one day). */
export function dayStartMs(key: string, offset = 0): number {
  const match = DAY_KEY.exec(key);
  if (!match) throw new Error(`not a day: ${key}`);
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + offset).getTime();
}

/** A local day from midnight to the next. */
export const daySpan = (key: string): Span => ({ startMs: dayStartMs(key), endMs: dayStartMs(key, 1) });

/** The key of the day `offset` days from `key`. */
export const shiftDay = (key: string, offset: number): string => dayKeyOf(dayStartMs(key, offset));

/** The starts of the `count` days ending with `lastKey`, then the end of that day: what `usage` takes. */
export const dayStartsEndingWith = (lastKey: string, count: number): number[] =>
  Array.from({ length: count + 1 }, (_, i) => dayStartMs(lastKey, i - count + 1));

/** A time as the viewer's clock shows it: `08:04:05`. */
export const clockOf = (ms: number): string => {
  const date = new Date(ms);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
};

/** `08:04` or `08:04:05` on a local day, as ms; undefined for anything else. */
export function timeOnDay(key: string, clock: string): number | undefined {
  const match = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(clock);
  if (!match) return undefined;
  const [hours, minutes, seconds] = [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  const day = DAY_KEY.exec(key);
  if (!day) return undefined;
  return new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3]), hours, minutes, seconds).getTime();
}
