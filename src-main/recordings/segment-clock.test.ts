import { describe, expect, it } from 'vitest';
import { segmentStep } from './segment-boundary';
import { createSegmentClock, segmentSpan } from './segment-clock';

describe('segment boundaries', () => {
  it('starts on the first lead keyframe and cuts at the first one at or past the target', () => {
    expect(segmentStep(false, { lead: true, keyframe: false, seconds: 0 }, 4)).toBe('skip');
    expect(segmentStep(false, { lead: false, keyframe: true, seconds: 0 }, 4)).toBe('skip');
    expect(segmentStep(false, { lead: true, keyframe: true, seconds: 0 }, 4)).toBe('start');
    expect(segmentStep(true, { lead: true, keyframe: true, seconds: 3.5 }, 4)).toBe('append');
    expect(segmentStep(true, { lead: true, keyframe: true, seconds: 3.9999999 }, 4)).toBe('cut');
    expect(segmentStep(true, { lead: true, keyframe: false, seconds: 6 }, 4)).toBe('append');
    expect(segmentStep(true, { lead: false, keyframe: true, seconds: 9 }, 4)).toBe('append');
  });
});

describe('segment clock', () => {
  it('dates media by the least delayed frame, per segment', () => {
    const clock = createSegmentClock();
    expect(clock.wallAt(0)).toBeUndefined();
    clock.observe(0, 10_500);
    clock.observe(1, 11_100);
    clock.observe(2, 12_900);
    expect(clock.wallAt(0)).toBe(10_100);
    clock.reset();
    clock.observe(3, 13_300);
    expect(clock.wallAt(3)).toBe(13_300);
  });

  it('follows the previous segment without a gap unless the estimate is more than a second off', () => {
    expect(segmentSpan(10_400, 4000, 10_000)).toEqual({ startMs: 10_000, endMs: 14_000 });
    expect(segmentSpan(12_000, 4000, 10_000)).toEqual({ startMs: 12_000, endMs: 16_000 });
    expect(segmentSpan(12_000, 4000, undefined)).toEqual({ startMs: 12_000, endMs: 16_000 });
  });
});
