/** One muxed frame as the segmenter sees it. */
export interface SegmentUnit {
  /** 90 kHz ticks on the output's time line. */
  time: number;
  /** A segment may begin here: a video keyframe (or any audio frame of an audio-only output). */
  cut: boolean;
}

export interface Segment {
  /** Its media sequence number: counts up from 0 for the session, never reused. */
  sequence: number;
  /** Seconds, from its first frame to the next segment's first frame. */
  duration: number;
  data: Uint8Array;
}

export interface SegmenterOptions<T extends SegmentUnit> {
  /** A segment ends at the first cut point after it is this long (seconds). */
  minSeconds: number;
  /** A stream without cut points (a very long GOP) is cut anyway here, so memory stays bounded. */
  maxSeconds: number;
  /** Completed segments kept; older ones are dropped. */
  keep: number;
  /** Turns a segment's units into its bytes (MPEG-TS: PAT/PMT first; fMP4: moof + mdat). */
  build(units: T[]): Uint8Array;
}

export interface Segmenter<T extends SegmentUnit> {
  /** Adds a unit; returns the segment it completed, if it started a new one. */
  push(unit: T): Segment | undefined;
  /**
   * Completes the segment being filled now, at the live edge (a new viewer's cached GOP is all
   * in), so a player has a first segment at once; the next one starts with the next unit,
   * keyframe or not, and the cuts after it are at keyframes again.
   */
  cutAtLiveEdge(): Segment | undefined;
  get(sequence: number): Segment | undefined;
  /** Completed segments still kept, oldest first. */
  readonly segments: readonly Segment[];
  /** The sequence number of the segment being filled now (the next to complete). */
  readonly pending: number;
  /** The longest segment so far, rounded as EXT-X-TARGETDURATION wants (never below 1). */
  readonly targetDuration: number;
  readonly stats: { segments: number; skipped: number; forcedCuts: number; liveEdgeCuts: number };
}

const TICKS = 90000;

/**
 * Cuts a live stream of muxed frames into HLS segments that start at keyframes, about
 * `minSeconds` long (a camera's GOP decides), keeping only the last `keep` of them. Pure: the
 * session feeds it and serves what it holds.
 */
export function createSegmenter<T extends SegmentUnit>(options: SegmenterOptions<T>): Segmenter<T> {
  const kept: Segment[] = [];
  const stats = { segments: 0, skipped: 0, forcedCuts: 0, liveEdgeCuts: 0 };
  let current: { start: number; units: T[] } | undefined;
  /** After a live-edge cut the next unit opens a segment even if it is not a cut point. */
  let continueWithNext = false;
  let sequence = 0;
  let target = 1;

  function complete(end: number): Segment {
    const segment: Segment = { sequence: sequence++, duration: Math.max(0, end - current!.start) / TICKS, data: options.build(current!.units) };
    kept.push(segment);
    if (kept.length > options.keep) kept.shift();
    target = Math.max(target, Math.round(segment.duration));
    stats.segments++;
    return segment;
  }

  return {
    push(unit) {
      if (!current) {
        if (!unit.cut && !continueWithNext) {
          stats.skipped++;
          return undefined;
        }
        continueWithNext = false;
        current = { start: unit.time, units: [unit] };
        return undefined;
      }
      const length = unit.time - current.start;
      const due = unit.cut && length >= options.minSeconds * TICKS;
      const overdue = length >= options.maxSeconds * TICKS;
      if (!due && !overdue) {
        current.units.push(unit);
        return undefined;
      }
      if (!due) stats.forcedCuts++;
      const done = complete(unit.time);
      current = { start: unit.time, units: [unit] };
      return done;
    },
    cutAtLiveEdge() {
      if (!current) return undefined;
      const units = current.units;
      const last = units[units.length - 1]!.time;
      // It ends one frame after its last one: the average spacing of its frames (25 fps when one).
      const frame = units.length > 1 ? (last - current.start) / (units.length - 1) : TICKS / 25;
      const done = complete(last + frame);
      current = undefined;
      continueWithNext = true;
      stats.liveEdgeCuts++;
      return done;
    },
    get: (n) => kept.find((s) => s.sequence === n),
    get segments() {
      return kept;
    },
    get pending() {
      return sequence;
    },
    get targetDuration() {
      return target;
    },
    stats,
  };
}
