import { describe, expect, it } from 'vitest';
import { scheduleAt } from './schedule-timeline';
import { parseWeeklyWindow } from './weekly-windows';

const windows = (...texts: string[]) => texts.map(parseWeeklyWindow);
const utc = { timeZone: 'UTC', preRollMs: 0, postRollMs: 0 };
// 2026-11-27 is a Friday.
const at = (iso: string) => Date.parse(iso);

describe('schedule timeline', () => {
  it('records inside a window until it closes, and outside waits for the next one', () => {
    const office = windows('mon-fri 08:00-18:00');
    expect(scheduleAt(office, at('2026-11-27T09:00:00Z'), utc)).toEqual({ recording: true, until: at('2026-11-27T18:00:00Z') });
    // Friday evening: next Monday morning.
    expect(scheduleAt(office, at('2026-11-27T18:00:00Z'), utc)).toEqual({ recording: false, until: at('2026-11-30T08:00:00Z') });
    expect(scheduleAt(office, at('2026-11-28T12:00:00Z'), utc)).toEqual({ recording: false, until: at('2026-11-30T08:00:00Z') });
  });

  it('opens early by the pre-roll, closes late by the post-roll, and joins windows that touch', () => {
    const rolls = { timeZone: 'UTC', preRollMs: 5_000, postRollMs: 10_000 };
    expect(scheduleAt(windows('fri 08:00-12:00', 'fri 12:00-13:00'), at('2026-11-27T07:59:56Z'), rolls)).toEqual({
      recording: true,
      until: at('2026-11-27T13:00:10Z'),
    });
    expect(scheduleAt(windows('fri 08:00-12:00'), at('2026-11-27T07:59:54Z'), rolls)).toEqual({
      recording: false,
      until: at('2026-11-27T07:59:55Z'),
    });
  });

  it('runs a window past midnight into the next day', () => {
    expect(scheduleAt(windows('thu 22:00-06:00'), at('2026-11-27T03:00:00Z'), utc)).toEqual({
      recording: true,
      until: at('2026-11-27T06:00:00Z'),
    });
  });

  it('reads the times in the given zone, across a change to daylight saving time', () => {
    const berlin = { timeZone: 'Europe/Berlin', preRollMs: 0, postRollMs: 0 };
    // Winter: Berlin is UTC+1.
    expect(scheduleAt(windows('fri 08:00-18:00'), at('2026-11-27T06:30:00Z'), berlin)).toEqual({
      recording: false,
      until: at('2026-11-27T07:00:00Z'),
    });
    // 2027-03-28: clocks go from 02:00 to 03:00; 08:00 that Sunday is 06:00 UTC.
    expect(scheduleAt(windows('sun 08:00-09:00'), at('2027-03-28T01:00:00Z'), berlin)).toEqual({
      recording: false,
      until: at('2027-03-28T06:00:00Z'),
    });
    // A window that starts in the skipped hour still starts (at 03:00 summer time).
    expect(scheduleAt(windows('sun 02:30-04:00'), at('2027-03-28T00:00:00Z'), berlin).until).toBe(at('2027-03-28T01:30:00Z'));
  });

  it('with windows every day round the clock, says it goes on past the days it looked at', () => {
    const state = scheduleAt(windows('daily 00:00-24:00'), at('2026-11-27T12:00:00Z'), utc);
    expect(state.recording).toBe(true);
    expect(state.until!).toBeGreaterThan(at('2026-12-04T00:00:00Z'));
  });
});
