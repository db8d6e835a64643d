import { describe, expect, it } from 'vitest';
import { createDecodeTimeline, type DecodedTime, type DecodeTimelineOptions } from './decode-timeline';
import { createTimestampUnwrapper } from './timestamp-unwrapper';

const FRAME = 3600; // 25 fps at 90 kHz

/** Presentation times in decode order, in frames: a keyframe at 0, then an encoder's mini-GOP (`[3, 1, 2]`: P B B) `groups` times. */
function pattern(miniGop: number[], groups: number): number[] {
  return [0, ...Array.from({ length: groups }, (_, g) => miniGop.map((p) => g * miniGop.length + p)).flat()];
}

function run(ptsInFrames: number[], options?: DecodeTimelineOptions): DecodedTime[] {
  const timeline = createDecodeTimeline(options);
  return ptsInFrames.map((p) => timeline.next(p * FRAME));
}

function expectValid(times: DecodedTime[]): void {
  for (let i = 0; i < times.length; i++) {
    expect(times[i]!.dts).toBeLessThanOrEqual(times[i]!.pts);
    if (i > 0) expect(times[i]!.dts).toBeGreaterThan(times[i - 1]!.dts);
  }
}

describe('decode timeline', () => {
  it('keeps DTS = PTS for a stream without B-frames, with or without a hint of depth 0', () => {
    const pts = [0, 1, 2, 3, 5, 6, 7];
    for (const options of [undefined, { hint: { reorderDepth: 0 } }]) {
      const timeline = createDecodeTimeline(options);
      expect(pts.map((p) => timeline.next(p * FRAME))).toEqual(pts.map((p) => ({ pts: p * FRAME, dts: p * FRAME })));
      expect(timeline.delay).toBe(0);
      expect(timeline.depth).toBe(0);
    }
  });

  it('times I P B B (x264 -bf 2, reorder depth 2 in its SPS) from the first frame: DTS two frames before, PTS untouched', () => {
    // Decode order I0 P3 B1 B2 P6 B4 B5 ...: presentation times as RTP carries them.
    const pts = [0, 3, 1, 2, 6, 4, 5, 9, 7, 8];
    const timeline = createDecodeTimeline({ hint: { reorderDepth: 2, frameDuration: FRAME } });
    expect(timeline.delay).toBe(2 * FRAME);
    const times = pts.map((p) => timeline.next(p * FRAME));
    expectValid(times);
    expect(times.map((t) => t.pts)).toEqual(pts.map((p) => p * FRAME));
    expect(times.map((t) => t.dts / FRAME)).toEqual(pts.map((_, n) => n - 2));
  });

  it('times a B-pyramid (I0 P3 B2 b1, x265) with depth 2, and depth 1 exactly one frame back', () => {
    const pyramid = pattern([3, 2, 1], 4);
    const deep = run(pyramid, { hint: { reorderDepth: 2 } });
    expectValid(deep);
    expect(deep.map((t) => t.dts / FRAME)).toEqual(pyramid.map((_, n) => n - 2));

    const ibbp = pattern([3, 1, 2], 4);
    const shallow = run(ibbp, { hint: { reorderDepth: 1 } });
    expectValid(shallow);
    expect(shallow.map((t) => t.dts / FRAME)).toEqual(ibbp.map((_, n) => n - 1));
    expect(shallow.map((t) => t.pts)).toEqual(ibbp.map((p) => p * FRAME));
  });

  it('learns B-frames it was not told of: valid at once, exact once the window is full, PTS raised only at the start', () => {
    const ibbp = pattern([3, 1, 2], 6);
    const timeline = createDecodeTimeline();
    const times = ibbp.map((p) => timeline.next(p * FRAME));
    expectValid(times);
    expect(timeline.depth).toBe(1);
    // From the second mini-GOP on, every frame is timed as with the right hint.
    expect(times.slice(5).map((t) => t.dts / FRAME)).toEqual(ibbp.slice(5).map((_, n) => n + 5 - 1));
    expect(times.slice(4).map((t) => t.pts)).toEqual(ibbp.slice(4).map((p) => p * FRAME));
    // The B-frames of the first mini-GOP could not be timed in advance: raised just past P3.
    expect(times.slice(2, 4).every((t) => t.pts > 3 * FRAME && t.pts < 4 * FRAME)).toBe(true);

    const pyramid = createDecodeTimeline();
    const deep = pattern([3, 2, 1], 6).map((p) => pyramid.next(p * FRAME));
    expectValid(deep);
    expect(pyramid.depth).toBe(2);
  });

  it('gives keyframes of a steady stream the same times as the frames around them (closed GOPs)', () => {
    // Two GOPs of 12: I0 P3 B1 B2 P6 B4 B5 P9 B7 B8 P11 B10, then I12 ...
    const gop = [0, 3, 1, 2, 6, 4, 5, 9, 7, 8, 11, 10];
    const pts = [...gop, ...gop.map((p) => p + 12)];
    for (const depth of [1, 2]) {
      const timeline = createDecodeTimeline({ hint: { reorderDepth: depth } });
      const times = pts.map((p, n) => timeline.next(p * FRAME, n % 12 === 0));
      expectValid(times);
      expect(times.map((t) => t.dts / FRAME)).toEqual(pts.map((_, n) => n - depth));
    }
  });

  it('stays ordered through dropped frames, and after a gap jumps at the keyframe (a slow client skipping ahead)', () => {
    const pts = [0, 3, 1, 2, 6, /* 4, 5 lost */ 9, 7, 8, /* gap */ 50, 53, 51, 52, 56, 54, 55];
    const timeline = createDecodeTimeline({ hint: { reorderDepth: 2 } });
    const times = pts.map((p) => timeline.next(p * FRAME, p === 0 || p === 50));
    expectValid(times);
    expect(times.map((t) => t.pts)).toEqual(pts.map((p) => p * FRAME));
    const resumed = pts.indexOf(50);
    expect(times.slice(resumed).map((t) => t.dts / FRAME)).toEqual([48, 49, 50, 51, 52, 53, 54]);
  });

  it('takes a clock that starts over for what it is, not for B-frames 16 deep', () => {
    const timeline = createDecodeTimeline();
    const times = [100, 101, 102, 5, 6, 7].map((p) => timeline.next(p * FRAME));
    expect(timeline.depth).toBe(0);
    expectValid(times);
  });

  it('works on unwrapped RTP timestamps across the 32-bit wrap', () => {
    const start = 0x100000000 - 5 * FRAME; // the wrap comes in the sixth frame
    const pts = pattern([3, 1, 2], 4);
    const unwrap = createTimestampUnwrapper();
    const timeline = createDecodeTimeline({ hint: { reorderDepth: 1 } });
    const times = pts.map((p) => timeline.next(unwrap((start + p * FRAME) >>> 0)));
    expectValid(times);
    expect(times.map((t) => (t.dts - start) / FRAME)).toEqual(pts.map((_, n) => n - 1));
    expect(times.at(-1)!.pts).toBeGreaterThan(0x100000000);
  });

  it('counts its start from the frame rate it sees when the hint has none (30 fps)', () => {
    const step = 3000;
    const timeline = createDecodeTimeline({ hint: { reorderDepth: 1 }, defaultFrameDuration: step });
    expect(timeline.delay).toBe(step);
    const times = [0, 3, 1, 2, 6, 4, 5].map((p) => timeline.next(p * step));
    expectValid(times);
    expect(times.map((t) => t.dts / step)).toEqual([-1, 0, 1, 2, 3, 4, 5]);
  });
});
