/**
 * Wall-clock times of media: frames carry media time only, and arrive late by a varying delay
 * (the GOP cache's frames all at once, seconds after they were taken). The smallest delay seen
 * is the closest to the truth: a frame cannot arrive before it was taken. Kept per segment, so
 * a camera clock that drifts from this machine's is followed.
 */
export interface SegmentClock {
  /** A lead frame at `mediaSeconds` (of the run) arrived at `arrivalMs`. */
  observe(mediaSeconds: number, arrivalMs: number): void;
  /** The wall time (ms) of `mediaSeconds`, by the frames seen since the last reset; undefined before any. */
  wallAt(mediaSeconds: number): number | undefined;
  /** Starts a new segment's estimate. */
  reset(): void;
}

export function createSegmentClock(): SegmentClock {
  let offset: number | undefined;
  return {
    observe(mediaSeconds, arrivalMs) {
      const delay = arrivalMs - mediaSeconds * 1000;
      if (offset === undefined || delay < offset) offset = delay;
    },
    wallAt: (mediaSeconds) => (offset === undefined ? undefined : Math.round(offset + mediaSeconds * 1000)),
    reset: () => void (offset = undefined),
  };
}

/** How far a segment's estimated start may be from the previous one's end and still follow on without a gap. */
const CONTINUITY_MS = 1_000;

/**
 * A segment's wall-clock span: it follows the previous one of its run without a gap unless the
 * estimate says the two are more than a second apart (clock drift caught up, frames lost).
 */
export function segmentSpan(
  estimatedStartMs: number,
  durationMs: number,
  previousEndMs: number | undefined,
): { startMs: number; endMs: number } {
  const follows = previousEndMs !== undefined && Math.abs(estimatedStartMs - previousEndMs) <= CONTINUITY_MS;
  const startMs = follows ? previousEndMs : estimatedStartMs;
  return { startMs, endMs: startMs + durationMs };
}
