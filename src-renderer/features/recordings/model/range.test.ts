import { describe, expect, it } from 'vitest';
import { checkedRange, defaultRange, exportKey } from './range';

const M = 60_000;
const H = 60 * M;
const spans = [
  { startMs: H, endMs: 2 * H },
  { startMs: 3 * H, endMs: 3 * H + 2 * M },
];

describe('export range', () => {
  it.each([
    ['in order', H, H + M, { ok: true, range: { startMs: H, endMs: H + M } }],
    ['ends given the other way round', H + M, H, { ok: true, range: { startMs: H, endMs: H + M } }],
    ['across a gap', 90 * M, 3 * H + M, { ok: true, range: { startMs: 90 * M, endMs: 3 * H + M } }],
    ['too short', H, H + 500, { ok: false, reason: 'Choose a range of at least a second.' }],
    ['over 6 hours', 0, 7 * H, { ok: false, reason: 'An export is at most 6 hours: choose a shorter range.' }],
    ['all in a gap', 2 * H, 3 * H, { ok: false, reason: 'Nothing was recorded in this range.' }],
  ])('%s', (_what, a, b, expected) => {
    expect(checkedRange(a, b, spans)).toEqual(expected);
  });

  it.each([
    ['five minutes from the cursor inside a span', H + M, { startMs: H + M, endMs: H + 6 * M }],
    ['cut at the end of the span', 2 * H - 2 * M, { startMs: 2 * H - 2 * M, endMs: 2 * H }],
    ['from a gap: the next span', 150 * M, { startMs: 3 * H, endMs: 3 * H + 2 * M }],
    ['after everything: the end of the last span', 5 * H, { startMs: 3 * H, endMs: 3 * H + 2 * M }],
  ])('a new selection: %s', (_what, cursor, expected) => {
    expect(defaultRange(spans, cursor)).toEqual(expected);
  });

  it('has no default with nothing recorded', () => {
    expect(defaultRange([], 0)).toBeUndefined();
  });
});

describe('export key', () => {
  it.each([
    ['cam', Date.UTC(2026, 10, 27, 8, 4, 5, 678), 'exports/cam-2026-11-27T08-04-05Z.mp4'],
    ['front door/1', Date.UTC(2026, 0, 1), 'exports/front_door_1-2026-01-01T00-00-00Z.mp4'],
  ])('%s at %d', (stream, startMs, key) => {
    expect(exportKey(stream, startMs)).toBe(key);
  });
});
