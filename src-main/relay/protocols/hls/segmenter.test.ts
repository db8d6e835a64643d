import { describe, expect, it } from 'vitest';
import { createSegmenter, type Segment, type SegmenterOptions } from './segmenter';

const S = 90000; // ticks per second
const FRAME = 3600; // 25 fps
interface Unit {
  time: number;
  cut: boolean;
  lead?: boolean;
  byte: number;
}
/** 25 fps video, a keyframe wherever `keyframe(i)` says; each unit's byte is its frame number. */
const video = (frames: number, keyframe: (i: number) => boolean, from = 0) =>
  Array.from({ length: frames }, (_, k) => from + k).map((i) => ({ time: i * FRAME, cut: keyframe(i), byte: i & 0xff }));
const everyNth = (gop: number) => (i: number) => i % gop === 0;
const build = (units: Unit[]): Uint8Array => Uint8Array.from(units.map((u) => u.byte));
const segmenterOf = (options: Partial<SegmenterOptions<Unit>> = {}) =>
  createSegmenter<Unit>({ minSeconds: 0.9, maxSeconds: 10, startSegments: 3, keep: 50, build, ...options });
/** What a player reads: EXTINF as written (three decimals), rounded as RFC 8216 4.3.3.1 rounds it. */
const rounded = (segment: Segment) => Math.round(Number(segment.duration.toFixed(3)));

describe('HLS segmenter', () => {
  it("cuts the session's first GOP (the cached frames, then live ones up to the next keyframe) into the first three segments: its keyframe and all but two frames, then a frame each", () => {
    const segmenter = segmenterOf();
    const units = video(150, everyNth(25));
    // The stream's cache: its last keyframe (frame 25) and 12 frames after it, all at once, after a frame from before it.
    segmenter.push(units[24]!);
    units.slice(25, 38).forEach((u) => segmenter.push(u));
    expect(segmenter.started).toBe(false);
    // Live frames up to the next keyframe (frame 50) end the first GOP.
    units.slice(38, 50).forEach((u) => segmenter.push(u));
    expect(segmenter.started).toBe(false);
    segmenter.push(units[50]!);
    expect(segmenter.started).toBe(true);
    expect(segmenter.stats.skipped).toBe(1);
    // A player starting three segments (or less than a GOP) from the end starts at the keyframe.
    expect(segmenter.segments.map((s) => [s.sequence, s.start, s.duration, s.independent, s.data[0]])).toEqual([
      [0, 1, 0.92, true, 25],
      [1, 1.92, 0.04, false, 48],
      [2, 1.96, 0.04, false, 49],
    ]);
    expect(segmenter.segments.flatMap((s) => Array.from(s.data))).toEqual(Array.from({ length: 25 }, (_, i) => 25 + i));
    // A 1 s GOP fits a target duration of 1; every later segment is a GOP from a keyframe.
    expect(segmenter.targetDuration).toBe(1);
    units.slice(51).forEach((u) => segmenter.push(u));
    expect(segmenter.segments.slice(3).map((s) => [s.sequence, s.duration, s.independent, s.data[0]])).toEqual([
      [3, 1, true, 50],
      [4, 1, true, 75],
      [5, 1, true, 100],
    ]);
    expect(segmenter.pending).toBe(6);
  });

  it('keeps the target duration of the first GOP while segment lengths vary, cutting between keyframes before a segment would round above it', () => {
    const segmenter = segmenterOf();
    // Keyframes: a 1 s GOP first, then GOPs of 0.6, 1.2, 0.4, 0.8, 2.4 and 1 s.
    const keyframes = new Set([0, 25, 40, 70, 80, 100, 160, 185, 210]);
    const targets = new Set<number>();
    for (const unit of video(211, (i) => keyframes.has(i))) {
      segmenter.push(unit);
      if (segmenter.started) targets.add(segmenter.targetDuration);
    }
    expect([...targets]).toEqual([1]);
    const later = segmenter.segments.slice(3);
    expect(later.map((s) => [s.duration, s.independent])).toEqual([
      // 0.6 s, then no keyframe before 1.5 s (a 1.2 s GOP): cut a frame short of rounding to 2,
      // then at the keyframe at once, so segments begin at keyframes again.
      [1.48, true],
      [0.32, false],
      // 0.4 + 0.8 = 1.2: one segment, ended at the first keyframe past 0.9 s.
      [1.2, true],
      // The 2.4 s GOP likewise.
      [1.48, true],
      [0.92, false],
      [1, true],
      [1, true],
    ]);
    for (const segment of segmenter.segments) expect(rounded(segment)).toBeLessThanOrEqual(1);
    expect(segmenter.stats.forcedCuts).toBe(2);
    expect(segmenter.stats.clamped).toBe(0);
  });

  it('sets a longer target for a longer first GOP, cuts GOPs as long as it at their keyframes, and one shorter than the minimum early when the next would be too long', () => {
    const two = segmenterOf();
    video(200, everyNth(50)).forEach((u) => two.push(u));
    expect(two.targetDuration).toBe(2);
    expect(two.segments.map((s) => s.duration)).toEqual([1.92, 0.04, 0.04, 2, 2]);
    const short = segmenterOf();
    // 0.8 s GOPs: two of them would round to 2 with a target of 1.
    video(101, everyNth(20)).forEach((u) => short.push(u));
    expect(short.targetDuration).toBe(1);
    expect(short.segments.slice(3).map((s) => s.duration)).toEqual([0.8, 0.8, 0.8, 0.8]);
  });

  it('cuts a stream without keyframes before its segments round above the target, and a frame late by more than its spacing is written as the limit', () => {
    const segmenter = segmenterOf({ maxSeconds: 2 });
    const units = [{ time: 0, cut: true, byte: 0 }, ...video(25 * 12, () => false, 1)];
    units.forEach((u) => segmenter.push(u));
    expect(segmenter.targetDuration).toBe(2);
    expect(segmenter.stats.forcedCuts).toBeGreaterThan(0);
    for (const segment of segmenter.segments) expect(rounded(segment)).toBeLessThanOrEqual(2);
    // A frame 3 s late (a camera that stalled): the segment ending there is written as 2.499 s.
    const last = units.at(-1)!;
    segmenter.push({ time: last.time + 3 * S, cut: false, byte: 1 });
    expect(segmenter.segments.at(-1)!.duration.toFixed(3)).toBe('2.499');
    expect(segmenter.stats.clamped).toBe(1);
  });

  it('starts at the live edge under the highest target when a playlist must go out before the first GOP ended', () => {
    const segmenter = segmenterOf({ maxSeconds: 4 });
    // A 10 s GOP: 2 s of it are in when the first playlist's wait is up.
    const units = video(400, everyNth(250));
    units.slice(0, 50).forEach((u) => segmenter.push(u));
    segmenter.startNow();
    expect([segmenter.started, segmenter.targetDuration]).toEqual([true, 4]);
    expect(segmenter.segments.map((s) => [s.duration, s.independent])).toEqual([
      [1.92, true],
      [0.04, false],
      [0.04, false],
    ]);
    // The next segment goes on from the live edge; the keyframe at 10 s begins one again.
    units.slice(50).forEach((u) => segmenter.push(u));
    expect(segmenter.targetDuration).toBe(4);
    for (const segment of segmenter.segments) expect(rounded(segment)).toBeLessThanOrEqual(4);
    expect(segmenter.segments.find((s) => s.start === 10)?.independent).toBe(true);
    // Too little in to cut: the target is fixed all the same.
    const early = segmenterOf({ maxSeconds: 4 });
    early.push(units[0]!);
    early.startNow();
    expect([early.started, early.targetDuration]).toEqual([false, 4]);
  });

  it('gives an audio-only stream (every frame a cut point) a first second in three segments, then segments of the minimum length', () => {
    const segmenter = segmenterOf({ minSeconds: 1 });
    // AAC at 44.1 kHz on the 90 kHz time line: 1024 samples = 2089.8 ticks.
    for (let i = 0; i < 200; i++) segmenter.push({ time: Math.round((i * 1024 * S) / 44100), cut: true, byte: 0 });
    expect(segmenter.segments.slice(0, 3).reduce((sum, s) => sum + s.duration, 0)).toBeCloseTo(1, 1);
    for (const s of segmenter.segments.slice(3)) expect(s.duration).toBeCloseTo(1, 1);
    expect(segmenter.segments.every((s) => s.independent)).toBe(true);
  });

  it('builds Low-Latency HLS parts of at most partSeconds, out as their frames are in; a segment is its parts laid end to end', () => {
    const segmenter = segmenterOf({ partSeconds: 0.3 });
    const units = video(126, everyNth(25));
    units.slice(0, 26).forEach((u) => segmenter.push(u));
    // The first GOP is in: its three segments have their parts.
    expect(segmenter.segments.map((s) => s.parts.map((p) => p.duration))).toEqual([[0.28, 0.28, 0.28, 0.08], [0.04], [0.04]]);
    // Seven frames of the next segment: not a part yet (the next frame still fits in 0.3 s)...
    units.slice(26, 32).forEach((u) => segmenter.push(u));
    expect(segmenter.pendingParts).toHaveLength(0);
    // ...the eighth would overrun it: frames 25-31 are its first part, independent (a keyframe).
    segmenter.push(units[32]!);
    expect(segmenter.pendingParts.map((p) => [p.index, p.duration, p.independent, Array.from(p.data)])).toEqual([
      [0, 0.28, true, [25, 26, 27, 28, 29, 30, 31]],
    ]);
    units.slice(33).forEach((u) => segmenter.push(u));
    for (const segment of segmenter.segments) {
      expect(segment.parts.flatMap((p) => Array.from(p.data))).toEqual(Array.from(segment.data));
      for (const part of segment.parts) expect(part.duration).toBeLessThanOrEqual(0.3);
      expect(segment.parts.map((p) => p.independent)).toEqual(segment.parts.map((_, i) => i === 0 && segment.independent));
    }
    expect(segmenter.segments[3]!.parts.map((p) => p.duration)).toEqual([0.28, 0.28, 0.28, 0.16]);
    // Frame 125 opened the next segment: no part of it is complete yet.
    expect(segmenter.pending).toBe(7);
    expect(segmenter.pendingParts).toEqual([]);
  });

  it('puts audio frames in the segment and part of the video frame before them', () => {
    const segmenter = segmenterOf({ partSeconds: 0.3 });
    const units: Unit[] = [];
    for (const v of video(76, everyNth(25))) units.push(v, { time: v.time + 100, cut: false, lead: false, byte: 200 });
    units.forEach((u) => segmenter.push(u));
    expect(segmenter.segments.map((s) => s.data.length)).toEqual([46, 2, 2, 50, 50]);
    expect(Array.from(segmenter.segments[3]!.data.subarray(0, 2))).toEqual([25, 200]);
  });
});
