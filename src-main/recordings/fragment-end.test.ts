import { describe, expect, it } from 'vitest';
import { segmentParts } from './fmp4-parts';
import { fragmentEndSeconds } from './fragment-end';
import { createRunWriter, type SegmentSummary } from './segment-writer';
import { cameraFrames } from './test-support/camera-frames';

describe('fragmentEndSeconds', () => {
  it("ends a segment's last fragment where the segment's media ends, and each other one where the next begins", () => {
    const { tracks, frames } = cameraFrames(6);
    const writer = createRunWriter({ tracks, segmentMs: 4_000 });
    const chunks: Uint8Array[] = [];
    let closed: SegmentSummary | undefined;
    for (const f of frames)
      for (const event of writer.push(f.track, f.frame, f.arrivalMs)) {
        if (event.kind === 'data' && !closed) chunks.push(...event.parts);
        if (event.kind === 'close') closed ??= event.segment;
      }
    const bytes = Buffer.concat(chunks);
    const parts = segmentParts(bytes);
    expect(parts.fragments.length).toBeGreaterThan(2);
    const ends = parts.fragments.map((f) => fragmentEndSeconds(bytes, parts, f));
    expect(ends.at(-1)).toBeCloseTo(closed!.durationMs / 1000, 2);
    for (let i = 0; i + 1 < parts.fragments.length; i++) {
      const next = parts.fragments[i + 1]!.tracks.find((t) => t.trackId === parts.leadTrack)!;
      expect(ends[i]).toBeCloseTo(next.baseTime / parts.timescales.get(parts.leadTrack)!, 3);
    }
  });
});
