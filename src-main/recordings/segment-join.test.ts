import { describe, expect, it } from 'vitest';
import { Fmp4PartsError, retimedFragments, segmentParts } from './fmp4-parts';
import { fragmentWindow, JoinError, joinPlan, type JoinSegment } from './segment-join';
import { createRunWriter, type WriterEvent } from './segment-writer';
import { cameraFrames } from './test-support/camera-frames';

/** Three 4 s segment files of a camera, as the recorder writes them. */
function threeSegments(): Buffer[] {
  const { tracks, frames } = cameraFrames(12);
  const writer = createRunWriter({ tracks, segmentMs: 4_000 });
  const files: Buffer[] = [];
  let chunks: Uint8Array[] = [];
  const apply = (events: readonly WriterEvent[]) => {
    for (const e of events) {
      if (e.kind === 'open') chunks = [];
      else if (e.kind === 'data') chunks.push(...e.parts);
      else files.push(Buffer.concat(chunks));
    }
  };
  for (const f of frames) apply(writer.push(f.track, f.frame, f.arrivalMs));
  apply(writer.finish());
  return files;
}

const T0 = Date.UTC(2026, 10, 27, 8, 0, 0);
const seg = (i: number, initId = 'a'): JoinSegment => ({ key: `k${i}`, startMs: T0 + i * 4000, durationMs: 4000, initId });

describe('joining segments', () => {
  it('plans the segments a range touches and where it is cut in the first and the last', () => {
    const plan = joinPlan([seg(0), seg(1), seg(2), seg(3)], T0 + 5_500, T0 + 10_000);
    expect(plan.map((s) => [s.segment.key, s.fromSeconds, s.toSeconds])).toEqual([
      ['k1', 1.5, undefined],
      ['k2', undefined, 2],
    ]);
  });

  it('refuses a range with nothing in it, and one across a change of picture format, naming where to split', () => {
    expect(() => joinPlan([seg(0)], T0 + 60_000, T0 + 70_000)).toThrow(JoinError);
    expect(() => joinPlan([seg(0), seg(1, 'b')], T0, T0 + 8_000)).toThrow(
      /changes at 2026-11-27T08:00:04.000Z.*up to 2026-11-27T08:00:04.000Z, then from it/,
    );
  });

  it('cuts inside a segment at keyframes: from the last one at or before the start, to the first at or after the end', () => {
    const parts = segmentParts(threeSegments()[0]!);
    const keyframeAt = (i: number) => parts.fragments[i]!.tracks.find((t) => t.trackId === 1)!.baseTime / 90000;
    const [first, end] = fragmentWindow(parts, 1.5, 2.5);
    expect(keyframeAt(first)).toBe(1);
    expect(parts.fragments[end]!.keyframe).toBe(true);
    expect(keyframeAt(end)).toBe(3);
    expect(fragmentWindow(parts)).toEqual([0, parts.fragments.length]);
  });

  it('moves fragments onto a later timeline and numbers them on, leaving the source bytes as they were', () => {
    const [, second] = threeSegments();
    const parts = segmentParts(second!);
    const before = Buffer.from(second!);
    const moved = retimedFragments(second!, parts, parts.fragments, 4, 101);
    expect(Buffer.compare(before, second!)).toBe(0);
    const init = second!.subarray(0, parts.initEnd);
    const reread = segmentParts(Buffer.concat([init, moved]));
    expect(reread.fragments.map((f) => f.tracks[0]!.baseTime)).toEqual(parts.fragments.map((f) => f.tracks[0]!.baseTime + 4 * 90000));
    const view = new DataView(moved.buffer, moved.byteOffset);
    expect(reread.fragments.map((f) => view.getUint32(f.sequenceAt - parts.initEnd))).toEqual(parts.fragments.map((_, i) => 101 + i));
  });

  it('laid end to end, three segments are one timeline with no gap and no overlap', () => {
    const files = threeSegments();
    const joined = Buffer.concat([
      files[0]!.subarray(0, segmentParts(files[0]!).initEnd),
      ...files.map((file, i) => {
        const parts = segmentParts(file);
        return retimedFragments(file, parts, parts.fragments, i * 4, 1 + i * 100);
      }),
    ]);
    const video = segmentParts(joined)
      .fragments.filter((f) => f.keyframe)
      .map((f) => f.tracks.find((t) => t.trackId === 1)!.baseTime / 90000);
    expect(video).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('says what is wrong with bytes that are not a fragmented MP4', () => {
    expect(() => segmentParts(Buffer.from('not an mp4 at all'))).toThrow(Fmp4PartsError);
    const [file] = threeSegments();
    expect(() => segmentParts(file!.subarray(0, file!.length - 3))).toThrow(/bad size/);
  });
});
