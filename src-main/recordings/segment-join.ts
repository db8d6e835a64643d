import { fragmentSeconds, type FragmentPart, type SegmentParts } from './fmp4-parts';

export interface JoinSegment {
  key: string;
  startMs: number;
  durationMs: number;
  initId: string;
}

/** One segment of a join: where the range begins or ends inside it, in seconds of its own timeline. */
export interface JoinStep {
  segment: JoinSegment;
  fromSeconds?: number;
  toSeconds?: number;
}

export class JoinError extends Error {
  override name = 'JoinError';
}

/**
 * The segments a download of [startMs, endMs) is made of, oldest first, and where it is cut in
 * the first and the last. One MP4 has one init segment: a range whose segments have different
 * ones (the camera came back at another size) is refused, naming where to split it.
 */
export function joinPlan(segments: readonly JoinSegment[], startMs: number, endMs: number): JoinStep[] {
  const inRange = segments.filter((s) => s.startMs < endMs && s.startMs + s.durationMs > startMs);
  if (inRange.length === 0)
    throw new JoinError(`nothing was recorded between ${new Date(startMs).toISOString()} and ${new Date(endMs).toISOString()}`);
  const change = inRange.findIndex((s) => s.initId !== inRange[0]!.initId);
  if (change > 0) {
    const at = new Date(inRange[change]!.startMs).toISOString();
    throw new JoinError(
      `the picture format changes at ${at} (the camera came back with other settings): ask for the range up to ${at}, then from it`,
    );
  }
  return inRange.map((segment, i) => {
    const step: JoinStep = { segment };
    if (i === 0 && startMs > segment.startMs) step.fromSeconds = (startMs - segment.startMs) / 1000;
    if (i === inRange.length - 1 && endMs < segment.startMs + segment.durationMs) step.toSeconds = (endMs - segment.startMs) / 1000;
    return step;
  });
}

const EPSILON = 1e-3;

/** A fragment's time on its lead track (the video), or its earliest track's without it. */
function leadSeconds(parts: SegmentParts, fragment: FragmentPart): number {
  const lead = fragment.tracks.find((t) => t.trackId === parts.leadTrack);
  return lead ? lead.baseTime / parts.timescales.get(lead.trackId)! : fragmentSeconds(parts, fragment);
}

/**
 * The fragments [first, end) of a segment that cover [from, to), cut at keyframes: from the
 * last keyframe at or before `from` (so the first picture decodes), up to the first keyframe
 * at or after `to`. Every keyframe starts a fragment in the relay's segments.
 */
export function fragmentWindow(parts: SegmentParts, fromSeconds?: number, toSeconds?: number): [number, number] {
  const fragments = parts.fragments;
  let first = 0;
  if (fromSeconds !== undefined) {
    fragments.forEach((fragment, i) => {
      if (fragment.keyframe && leadSeconds(parts, fragment) <= fromSeconds + EPSILON) first = i;
    });
  }
  let end = fragments.length;
  if (toSeconds !== undefined) {
    const at = fragments.findIndex((fragment, i) => i > first && fragment.keyframe && leadSeconds(parts, fragment) >= toSeconds - EPSILON);
    if (at > 0) end = at;
  }
  return [first, end];
}
