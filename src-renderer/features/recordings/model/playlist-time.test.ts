import { describe, expect, it } from 'vitest';
import { mediaTimeOf, wallTimeOf } from './playlist-time';

// Two segments of 2 s, then, after an hour's gap, one more: one continuous timeline for the player.
const T = Date.UTC(2026, 10, 27, 8);
const entries = [
  { start: 0, duration: 2, programDateTimeMs: T },
  { start: 2, duration: 2, programDateTimeMs: T + 2000 },
  { start: 4, duration: 2, programDateTimeMs: T + 3_600_000 },
];

describe('playlist time', () => {
  it.each([
    ['the first frame', T, 0],
    ['inside the second segment', T + 3500, 3.5],
    ['after the gap', T + 3_601_000, 5],
    ['in the gap', T + 60_000, undefined],
    ['before everything', T - 1, undefined],
    ['after everything', T + 3_602_000, undefined],
  ])('wall time of %s → player time', (_what, ms, seconds) => {
    expect(mediaTimeOf(entries, ms)).toBe(seconds);
  });

  it.each([
    [0, T],
    [3.5, T + 3500],
    [5, T + 3_601_000],
    [99, T + 3_602_000],
    [-1, undefined],
  ])('player time %d → wall time', (seconds, ms) => {
    expect(wallTimeOf(entries, seconds)).toBe(ms);
  });
});
