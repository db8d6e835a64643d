import { describe, expect, it } from 'vitest';
import { backoffMs } from './backoff';
import { catchUpTarget, trimRange } from './live-edge';

describe('catchUpTarget', () => {
  it.each<[string, Array<[number, number]>, number, number | undefined]>([
    ['nothing buffered', [], 0, undefined],
    ['close to live', [[0, 5]], 4.5, undefined],
    ['behind by seconds', [[0, 9]], 2, 8.7],
    ['before the first range (a gap at start)', [[3.2, 4]], 0, 3.7],
    [
      'a later range after a gap',
      [
        [0, 2],
        [5, 9],
      ],
      1.9,
      8.7,
    ],
  ])('%s', (_name, ranges, time, target) => {
    const got = catchUpTarget(ranges, time);
    if (target === undefined) expect(got).toBeUndefined();
    else expect(got).toBeCloseTo(target, 5);
  });
});

describe('trimRange', () => {
  it('frees what is more than 10 s behind playback', () => {
    expect(trimRange([[0, 30]], 25)).toEqual([0, 15]);
    expect(trimRange([[0, 10]], 9)).toBeUndefined();
    expect(trimRange([], 9)).toBeUndefined();
  });
});

describe('backoffMs', () => {
  it('doubles from 1 s up to 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map(backoffMs)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });
});
