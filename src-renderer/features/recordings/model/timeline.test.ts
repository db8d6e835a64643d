import { describe, expect, it } from 'vitest';
import { gapsOf, layout, neighbourSpan, playableFrom, spansOf, timeAtX, viewWindow, xOfTime, type Span } from './timeline';

const M = 60_000;
const H = 60 * M;
const day: Span = { startMs: 0, endMs: 24 * H };
const s = (startMs: number, endMs: number): Span => ({ startMs, endMs });

describe('spans of segments', () => {
  it.each([
    ['nothing', [], []],
    ['back to back segments are one span', [s(0, 2000), s(2000, 4000), s(4000, 6000)], [s(0, 6000)]],
    ['a jitter under a second still joins', [s(0, 2000), s(2900, 5000)], [s(0, 5000)]],
    ['a second or more is a gap', [s(0, 2000), s(3000, 5000)], [s(0, 2000), s(3000, 5000)]],
    ['unsorted input', [s(10 * M, 11 * M), s(0, M)], [s(0, M), s(10 * M, 11 * M)]],
  ])('%s', (_what, segments, spans) => {
    expect(spansOf(segments)).toEqual(spans);
  });
});

describe('gaps of a day', () => {
  it('is the whole day with nothing recorded', () => {
    expect(gapsOf([], day)).toEqual([day]);
  });
  it('is what lies between and around the spans, cut to the day', () => {
    expect(gapsOf([s(-H, H), s(2 * H, 3 * H), s(23 * H, 25 * H)], day)).toEqual([s(H, 2 * H), s(3 * H, 23 * H)]);
  });
});

describe('timeline layout', () => {
  it.each([
    ['the first hour on a 2400 px timeline', s(0, H), { left: 0, width: 100 }],
    ['noon to 18:00', s(12 * H, 18 * H), { left: 1200, width: 600 }],
    ['a 2 s segment stays a pixel wide', s(6 * H, 6 * H + 2000), { left: 600, width: 1 }],
    ['a span from yesterday is cut at midnight', s(-2 * H, H), { left: 0, width: 100 }],
    ['a span into tomorrow is cut at the end', s(23 * H, 26 * H), { left: 2300, width: 100 }],
  ])('%s', (_what, span, box) => {
    expect(layout([span], day, 2400)).toEqual([{ item: span, ...box }]);
  });

  it('leaves out what is outside the day', () => {
    expect(layout([s(-2 * H, -H), s(24 * H, 25 * H)], day, 2400)).toEqual([]);
  });

  it.each([
    [0, 0],
    [1200, 12 * H],
    [600, 6 * H],
    [-50, 0],
    [9999, 24 * H],
  ])('x %d is the time %d', (x, ms) => {
    expect(timeAtX(x, day, 2400)).toBe(ms);
  });

  it('places a time back where it was read', () => {
    expect(xOfTime(timeAtX(777, day, 2400), day, 2400)).toBeCloseTo(777, 5);
    expect(timeAtX(10, day, 0)).toBe(0);
  });
});

describe('playing from a time', () => {
  const spans = [s(H, 2 * H), s(3 * H, 4 * H)];
  it.each([
    ['inside a span plays from there', 90 * M, { span: spans[0], fromMs: 90 * M }],
    ['in a gap plays the next span from its start', 150 * M, { span: spans[1], fromMs: 3 * H }],
    ['before the first span plays it from its start', 0, { span: spans[0], fromMs: H }],
    ['after the last span plays nothing', 5 * H, undefined],
  ])('%s', (_what, ms, expected) => {
    expect(playableFrom(spans, ms)).toEqual(expected);
  });

  it.each([
    ['next from inside the first', 90 * M, 1, spans[1]],
    ['next from the last', 210 * M, 1, undefined],
    ['previous well inside a span restarts it', 210 * M, -1, spans[1]],
    ['previous at a span start goes to the one before', 3 * H + 500, -1, spans[0]],
    ['previous before everything', 30 * M, -1, undefined],
  ] as const)('%s', (_what, ms, direction, expected) => {
    expect(neighbourSpan(spans, ms, direction)).toEqual(expected);
  });
});

describe('zoomed view', () => {
  it.each([
    ['the whole day', 12 * H, 24 * H, day],
    ['an hour around the cursor', 12 * H, H, s(11.5 * H, 12.5 * H)],
    ['kept inside the day at its start', 5 * M, H, s(0, H)],
    ['kept inside the day at its end', 24 * H, H, s(23 * H, 24 * H)],
    ['never longer than the day', 0, 48 * H, day],
  ])('%s', (_what, centre, length, expected) => {
    expect(viewWindow(day, centre, length)).toEqual(expected);
  });

  it('lays spans and reads clicks in the zoomed window as in the day', () => {
    const view = viewWindow(day, 12 * H, 10 * M);
    const [placed] = layout([s(12 * H, 12 * H + 10_000)], view, 600);
    expect(placed).toMatchObject({ left: 300, width: 10 });
    expect(timeAtX(305, view, 600)).toBe(12 * H + 5_000);
  });
});
