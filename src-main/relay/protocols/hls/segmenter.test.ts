import { describe, expect, it } from 'vitest';
import { createSegmenter } from './segmenter';

const S = 90000; // ticks per second
/** 25 fps video with a keyframe every `gop` frames; each unit's byte is its frame number. */
const video = (frames: number, gop: number) => Array.from({ length: frames }, (_, i) => ({ time: i * 3600, cut: i % gop === 0, byte: i & 0xff }));
interface Unit {
  time: number;
  cut: boolean;
  byte: number;
}
const build = (units: Unit[]): Uint8Array => Uint8Array.from(units.map((u) => u.byte));

describe('HLS segmenter', () => {
  it('cuts at the first keyframe after the minimum length, numbers segments and keeps only the last few', () => {
    const segmenter = createSegmenter<Unit>({ minSeconds: 0.9, maxSeconds: 10, keep: 3, build });
    const done = video(25 * 6 + 1, 12).map((u) => segmenter.push(u)).filter((s) => s !== undefined);
    // Keyframes every 0.48 s: a segment ends at the first one at least 0.9 s in (0.96 s).
    expect(done.map((s) => s.duration)).toEqual([0.96, 0.96, 0.96, 0.96, 0.96, 0.96]);
    expect(done.map((s) => s.sequence)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(Array.from(done[1]!.data)).toEqual(Array.from({ length: 24 }, (_, i) => 24 + i));
    expect(segmenter.segments.map((s) => s.sequence)).toEqual([3, 4, 5]);
    expect(segmenter.get(2)).toBeUndefined();
    expect(segmenter.get(4)?.sequence).toBe(4);
    expect([segmenter.pending, segmenter.targetDuration]).toEqual([6, 1]);
  });

  it('cuts at the live edge once a new viewer\'s cached GOP is in, then at keyframes again', () => {
    const segmenter = createSegmenter<Unit>({ minSeconds: 0.9, maxSeconds: 10, keep: 5, build });
    const units = video(25 * 4, 50);
    // The cache: the keyframe at frame 0 and 19 frames after it, all at once.
    units.slice(0, 20).forEach((u) => segmenter.push(u));
    const first = segmenter.cutAtLiveEdge();
    expect(first?.sequence).toBe(0);
    expect(first?.duration).toBe(0.8);
    expect(Array.from(first!.data)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    // Live frames: the next segment starts with frame 20 (no keyframe) and ends at frame 50's keyframe.
    const done = units.slice(20).map((u) => segmenter.push(u)).filter((x) => x !== undefined);
    expect(done.map((x) => [x.sequence, x.duration, x.data[0]])).toEqual([[1, 1.2, 20]]);
    expect(segmenter.stats.liveEdgeCuts).toBe(1);
    expect(createSegmenter<Unit>({ minSeconds: 1, maxSeconds: 10, keep: 5, build }).cutAtLiveEdge()).toBeUndefined();
  });

  it('drops what comes before the first cut point, and cuts a stream without keyframes at the maximum', () => {
    const segmenter = createSegmenter<Unit>({ minSeconds: 1, maxSeconds: 2, keep: 5, build });
    const units = [{ time: 0, cut: false, byte: 1 }, ...video(25 * 5, 1000).map((u) => ({ ...u, time: u.time + 3600 }))];
    units.forEach((u) => segmenter.push(u));
    expect(segmenter.stats.skipped).toBe(1);
    expect(segmenter.segments.map((s) => s.duration)).toEqual([2, 2]);
    expect(segmenter.stats.forcedCuts).toBe(2);
    expect(segmenter.targetDuration).toBe(2);
  });

  it('gives an audio-only stream (every frame a cut point) segments of the minimum length', () => {
    const segmenter = createSegmenter<Unit>({ minSeconds: 1, maxSeconds: 10, keep: 5, build });
    // AAC at 44.1 kHz on the 90 kHz time line: 1024 samples = 2089.8 ticks.
    for (let i = 0; i < 200; i++) segmenter.push({ time: Math.round((i * 1024 * S) / 44100), cut: true, byte: 0 });
    expect(segmenter.segments.length).toBe(4);
    for (const s of segmenter.segments) expect(s.duration).toBeCloseTo(1.0, 1);
  });

  it('builds Low-Latency HLS parts of at most partSeconds, out as their frames are in; the segment is its parts laid end to end', () => {
    const segmenter = createSegmenter<Unit>({ minSeconds: 0.9, maxSeconds: 10, keep: 5, build, partSeconds: 0.3 });
    const units = video(101, 50);
    // Seven frames in: not a part yet (the next frame still fits in 0.3 s)...
    units.slice(0, 7).forEach((u) => segmenter.push(u));
    expect(segmenter.pendingParts).toHaveLength(0);
    // ...the eighth would overrun it: frames 0-6 are the first part, independent (a keyframe).
    segmenter.push(units[7]!);
    expect(segmenter.pendingParts.map((p) => [p.index, p.duration, p.independent, Array.from(p.data)])).toEqual([[0, 0.28, true, [0, 1, 2, 3, 4, 5, 6]]]);
    units.slice(8).forEach((u) => segmenter.push(u));
    const [first, second] = segmenter.segments;
    expect(first!.duration).toBe(2);
    expect(first!.parts.map((p) => p.duration)).toEqual([0.28, 0.28, 0.28, 0.28, 0.28, 0.28, 0.28, 0.04]);
    expect(first!.parts.map((p) => p.independent)).toEqual([true, false, false, false, false, false, false, false]);
    expect(Array.from(first!.data)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(first!.parts.flatMap((p) => Array.from(p.data))).toEqual(Array.from(first!.data));
    expect(second!.parts[0]!.data[0]).toBe(50);
    // Frame 100 opened the third segment: no part of it is complete yet.
    expect(segmenter.pending).toBe(2);
    expect(segmenter.pendingParts).toEqual([]);
  });

  it('with parts, the live-edge cut closes the part being filled', () => {
    const segmenter = createSegmenter<Unit>({ minSeconds: 0.9, maxSeconds: 10, keep: 5, build, partSeconds: 0.3 });
    video(20, 50).forEach((u) => segmenter.push(u));
    const first = segmenter.cutAtLiveEdge()!;
    expect(first.duration).toBe(0.8);
    expect(first.parts.map((p) => p.duration)).toEqual([0.28, 0.28, 0.24]);
    expect(first.parts.flatMap((p) => Array.from(p.data))).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});
