import { describe, expect, it } from 'vitest';
import { fragmentSeconds, segmentParts } from './fmp4-parts';
import { createRunWriter, type SegmentSummary, type WriterEvent } from './segment-writer';
import { cameraFrames, type CameraFrame } from './test-support/camera-frames';

interface Written {
  bytes: Buffer;
  summary: SegmentSummary;
}

/** Runs frames through a writer and gathers each segment's bytes as the spool would. */
function record(frames: CameraFrame[], tracks: ReturnType<typeof cameraFrames>['tracks'], segmentMs: number): Written[] {
  const writer = createRunWriter({ tracks, segmentMs });
  const out: Written[] = [];
  let chunks: Uint8Array[] | undefined;
  const apply = (events: readonly WriterEvent[]) => {
    for (const event of events) {
      if (event.kind === 'open') chunks = [];
      else if (event.kind === 'data') chunks!.push(...event.parts);
      else {
        out.push({ bytes: Buffer.concat(chunks!), summary: event.segment });
        chunks = undefined;
      }
    }
  };
  for (const { track, frame, arrivalMs } of frames) apply(writer.push(track, frame, arrivalMs));
  apply(writer.finish());
  return out;
}

const AT = Date.UTC(2026, 10, 27, 8, 0, 0);

describe('segment writer', () => {
  it('cuts 10 s of a camera into whole fMP4 files of 4 s, 4 s and the rest, each starting at 0 on a keyframe', () => {
    const { tracks, frames } = cameraFrames(10, { at: AT });
    const segments = record(frames, tracks, 4_000);
    expect(segments.map((s) => s.summary.durationMs)).toEqual([4000, 4000, 2000]);
    for (const { bytes } of segments) {
      const parts = segmentParts(bytes);
      expect(parts.initEnd).toBeGreaterThan(0);
      expect(parts.fragments[0]!.keyframe).toBe(true);
      expect(parts.fragments[0]!.tracks.find((t) => t.trackId === 1)!.baseTime).toBe(0);
    }
    // avc1 with the SPS's profile and level, and AAC-LC.
    expect(segments[0]!.summary.codecs).toMatch(/^avc1\.[0-9A-F]{6},mp4a\.40\.2$/);
  });

  it('starts a fragment at every keyframe (a range is cut at keyframes by whole fragments) and at least every second', () => {
    const { tracks, frames } = cameraFrames(4, { at: AT });
    const [segment] = record(frames, tracks, 4_000);
    const parts = segmentParts(segment!.bytes);
    const keyframeTimes = parts.fragments.filter((f) => f.keyframe).map((f) => f.tracks.find((t) => t.trackId === 1)!.baseTime / 90000);
    expect(keyframeTimes).toEqual([0, 1, 2, 3]);
    expect(parts.fragments.length).toBeLessThanOrEqual(8);
  });

  it('lays the segments end to end in wall-clock time, from the earliest a frame can have been taken', () => {
    const { tracks, frames } = cameraFrames(10, { at: AT, delayMs: 120 });
    // Jitter: some frames late by up to 300 ms more; none earlier than 120 ms after it was taken.
    const jittered = frames.map((f, i) => ({ ...f, arrivalMs: f.arrivalMs + (i % 7 === 0 ? 300 : 0) }));
    const segments = record(jittered, tracks, 4_000).map((s) => s.summary);
    expect(segments[0]!.startMs).toBe(AT + 120);
    for (let i = 1; i < segments.length; i++) expect(segments[i]!.startMs).toBe(segments[i - 1]!.endMs);
    expect(segments.map((s) => s.endMs - s.startMs)).toEqual([4000, 4000, 2000]);
  });

  it('dates a first segment from the GOP cache by the live frames, not by the burst it came in', () => {
    const { tracks, frames } = cameraFrames(6, { at: AT });
    // The first 2 s arrive at once at 2.08 s (the cached GOP handed to a new consumer).
    const burst = frames.map((f) => ({ ...f, arrivalMs: Math.max(f.arrivalMs, AT + 2_080) }));
    const [first] = record(burst, tracks, 4_000).map((s) => s.summary);
    expect(first!.startMs).toBe(AT + 80);
  });

  it('carries the audio on across a cut where the previous segment left it', () => {
    const { tracks, frames } = cameraFrames(8, { at: AT });
    const [one, two] = record(frames, tracks, 4_000);
    const audioRun = (bytes: Buffer) => {
      const parts = segmentParts(bytes);
      const runs = parts.fragments.flatMap((f) => f.tracks.filter((t) => t.trackId === 2));
      return { first: runs[0]!.baseTime / 44100, parts };
    };
    const end = audioRun(one!.bytes);
    const next = audioRun(two!.bytes);
    const aacFrame = 1024 / 44100;
    // AAC frame 172 (3.994 s) came before the keyframe at 4 s and closed the first segment;
    // frame 173 (4.016 s) is the second's first, at 4.016 - 4 s on its timeline, not where it arrived.
    const lastOfFirst = end.parts.fragments.flatMap((f) => f.tracks.filter((t) => t.trackId === 2)).at(-1)!;
    expect(lastOfFirst.baseTime / 44100).toBeLessThanOrEqual(172 * aacFrame + 1e-6);
    expect(4 + next.first).toBeCloseTo(173 * aacFrame, 3);
    expect(fragmentSeconds(next.parts, next.parts.fragments[0]!)).toBe(0);
  });

  it('drops what comes before the first keyframe, and segments of a target shorter than a GOP last a GOP', () => {
    const { tracks, frames } = cameraFrames(5, { at: AT, audio: false });
    // Joining in the middle of a GOP: the first 10 frames are not there.
    const segments = record(frames.slice(10), tracks, 500);
    expect(segments.map((s) => s.summary.durationMs)).toEqual([1000, 1000, 1000, 1000]);
    expect(segments[0]!.summary.startMs).toBe(AT + 1_080);
  });

  it('keeps one init segment while the parameter sets stay: every segment of a run has the same init id', () => {
    const { tracks, frames } = cameraFrames(9, { at: AT });
    const segments = record(frames, tracks, 3_000);
    expect(new Set(segments.map((s) => s.summary.initId)).size).toBe(1);
    const inits = segments.map((s) => s.bytes.subarray(0, segmentParts(s.bytes).initEnd).toString('hex'));
    expect(new Set(inits).size).toBe(1);
  });
});
