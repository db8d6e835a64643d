/** Where the segmenter cuts, and what durations it may write: pure rules on 90 kHz ticks. */

const TICKS = 90000;

/** What a cut decision looks at, kept up to date by the segmenter. */
export interface CutState {
  /** EXT-X-TARGETDURATION, whole seconds. */
  target: number;
  /** A segment that began at a keyframe ends at the first keyframe at least this long. */
  minTicks: number;
  /** Spacing of the leading track's frames (the last seen). */
  leadSpacing: number;
  /** Spacing of the last two keyframes, once two were seen. */
  gop?: number;
}

/**
 * The longest a segment may last: its EXTINF, written with three decimals, still rounds to at
 * most the target duration (RFC 8216 4.3.3.1), so `x.4995` and beyond are out.
 */
export const maxSegmentTicks = (target: number): number => Math.ceil((target + 0.4995) * TICKS) - 1;

/**
 * The session's target duration: the least whole number of seconds its first GOP (`spanTicks`)
 * fits in, at most `highest`. Later GOPs as long as the first make segments that fit too; a
 * longer one is cut between keyframes, so no segment ever rounds above it.
 */
export function chooseTarget(spanTicks: number, highest: number): number {
  let target = 1;
  while (target < highest && spanTicks > maxSegmentTicks(target)) target++;
  return target;
}

/**
 * Why the segment being filled ends before this frame of the leading track, if it does:
 * - `keyframe`: a keyframe after the minimum length, or the first keyframe of a segment that began
 *   between keyframes (segments realign at once), or one after which the next keyframe would come
 *   too late for the target;
 * - `limit`: no keyframe in time, and the next frame would take the segment past the target.
 */
export function cutHere(
  state: CutState,
  at: { length: number; keyframe: boolean; independent: boolean },
): 'keyframe' | 'limit' | undefined {
  if (at.length <= 0) return undefined;
  const max = maxSegmentTicks(state.target);
  const overdue = at.length + state.leadSpacing > max;
  const nextKeyframeTooLate = state.gop !== undefined && at.length + state.gop > max;
  if (at.keyframe && (!at.independent || at.length >= state.minTicks || overdue || nextKeyframeTooLate)) return 'keyframe';
  return overdue ? 'limit' : undefined;
}

/**
 * Where the session's first GOP is split (the units that begin a segment, after the first): its
 * only keyframe begins the first segment, so that one holds all but the last frames and the
 * others one frame each. A player starting three segments (or PART-HOLD-BACK) from the end
 * then starts at the keyframe: one starting between keyframes shows nothing until the next
 * (hls.js, given MPEG-TS without a keyframe first, even makes no video buffer at all).
 */
export function startBoundaries<T>(leads: readonly T[], count: number): Set<T> {
  return new Set(count > 1 ? leads.slice(1).slice(-(count - 1)) : []);
}

/**
 * A segment's EXTINF in seconds. A frame late by more than its spacing can take a segment past
 * the limit: its duration is then written as the limit (the media's own timestamps stay exact),
 * so the playlist never breaks its target.
 */
export function segmentDuration(ticks: number, target: number, stats: { clamped: number }): number {
  const max = maxSegmentTicks(target);
  if (ticks <= max) return Math.max(0, ticks) / TICKS;
  stats.clamped++;
  return max / TICKS;
}

/** A part's duration in seconds, never above the part target (as `segmentDuration`). */
export function partDuration(ticks: number, partSeconds: number, stats: { clamped: number }): number {
  const max = Math.round(partSeconds * TICKS);
  if (ticks <= max) return Math.max(0, ticks) / TICKS;
  stats.clamped++;
  return partSeconds;
}
