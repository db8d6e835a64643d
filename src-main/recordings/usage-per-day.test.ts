import { describe, expect, it } from 'vitest';
import { usagePerDay } from './usage-per-day';

const H = 3_600_000;

describe('usage per day', () => {
  it('counts each segment in the day its start falls in', () => {
    const days = usagePerDay(
      [
        { startMs: 0, bytes: 100 },
        { startMs: 23 * H, bytes: 50 }, // ends after midnight: still the first day's
        { startMs: 24 * H, bytes: 7 },
        { startMs: 47 * H, bytes: 3 },
      ],
      [0, 24 * H, 48 * H],
    );
    expect(days).toEqual([
      { startMs: 0, bytes: 150, segments: 2 },
      { startMs: 24 * H, bytes: 10, segments: 2 },
    ]);
  });

  it('leaves out segments before the first day and at or after the end, and keeps days with nothing', () => {
    const days = usagePerDay(
      [
        { startMs: -1, bytes: 1 },
        { startMs: 48 * H, bytes: 1 },
      ],
      [0, 23 * H, 48 * H], // a 23-hour day (daylight saving time starts), then a 25-hour one
    );
    expect(days).toEqual([
      { startMs: 0, bytes: 0, segments: 0 },
      { startMs: 23 * H, bytes: 0, segments: 0 },
    ]);
  });
});
