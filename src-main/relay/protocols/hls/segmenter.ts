/** One muxed frame as the segmenter sees it. */
export interface SegmentUnit {
  /** 90 kHz ticks on the output's time line. */
  time: number;
  /** A segment may begin here: a video keyframe (or any audio frame of an audio-only output). */
  cut: boolean;
  /**
   * A partial segment may begin here: a frame of the leading track (the video, or the audio of
   * an audio-only output). Undefined counts as true.
   */
  lead?: boolean;
}

/** A partial segment (Low-Latency HLS): a run of a segment's frames, playable as soon as it is out. */
export interface Part {
  /** Its place in its segment, from 0. */
  index: number;
  /** Seconds, from its first frame to the next part's first frame. */
  duration: number;
  /** It begins with a keyframe. */
  independent: boolean;
  data: Uint8Array;
}

export interface Segment {
  /** Its media sequence number: counts up from 0 for the session, never reused. */
  sequence: number;
  /** Seconds, from its first frame to the next segment's first frame. */
  duration: number;
  data: Uint8Array;
  /** With `partSeconds`: its parts, whose bytes laid end to end are `data`. */
  parts: readonly Part[];
}

export interface SegmenterOptions<T extends SegmentUnit> {
  /** A segment ends at the first cut point after it is this long (seconds). */
  minSeconds: number;
  /** A stream without cut points (a very long GOP) is cut anyway here, so memory stays bounded. */
  maxSeconds: number;
  /** Completed segments kept; older ones are dropped. */
  keep: number;
  /**
   * Low-Latency HLS: segments are built from parts of at most this long (seconds), each out as
   * soon as its frames are in. Without it a segment is built whole when it completes.
   */
  partSeconds?: number;
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
  /** The parts of the segment being filled that are complete (with `partSeconds`). */
  readonly pendingParts: readonly Part[];
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
  const partTicks = options.partSeconds === undefined ? undefined : options.partSeconds * TICKS;
  /** The segment being filled: its frames not yet in a part, and its parts so far. */
  let current: { start: number; units: T[]; partStart: number; parts: Part[] } | undefined;
  /** After a live-edge cut the next unit opens a segment even if it is not a cut point. */
  let continueWithNext = false;
  let sequence = 0;
  let target = 1;
  /** Spacing of the leading track's frames (a part ends before the next frame would overrun it). */
  let leadSpacing = TICKS / 25;
  let lastLead: number | undefined;

  /** Closes the frames gathered since the last part into one, ending at `end`. */
  function closePart(end: number): void {
    const open = current!;
    if (open.units.length === 0) return;
    open.parts.push({ index: open.parts.length, duration: Math.max(0, end - open.partStart) / TICKS, independent: open.units[0]!.cut, data: options.build(open.units) });
    open.units = [];
    open.partStart = end;
  }

  function complete(end: number): Segment {
    const open = current!;
    let data: Uint8Array;
    let parts: Part[] = [];
    if (partTicks === undefined) {
      data = options.build(open.units);
    } else {
      closePart(end);
      // One buffer for the segment; its parts become views of it, so nothing is kept twice.
      data = new Uint8Array(open.parts.reduce((sum, part) => sum + part.data.length, 0));
      let offset = 0;
      parts = open.parts.map((part) => {
        data.set(part.data, offset);
        const view = { ...part, data: data.subarray(offset, offset + part.data.length) };
        offset += part.data.length;
        return view;
      });
    }
    const segment: Segment = { sequence: sequence++, duration: Math.max(0, end - open.start) / TICKS, data, parts };
    kept.push(segment);
    if (kept.length > options.keep) kept.shift();
    target = Math.max(target, Math.round(segment.duration));
    stats.segments++;
    return segment;
  }

  const open = (unit: T) => {
    current = { start: unit.time, units: [unit], partStart: unit.time, parts: [] };
  };

  return {
    push(unit) {
      if (unit.lead !== false) {
        if (lastLead !== undefined && unit.time > lastLead) leadSpacing = unit.time - lastLead;
        lastLead = unit.time;
      }
      if (!current) {
        if (!unit.cut && !continueWithNext) {
          stats.skipped++;
          return undefined;
        }
        continueWithNext = false;
        open(unit);
        return undefined;
      }
      const length = unit.time - current.start;
      const due = unit.cut && length >= options.minSeconds * TICKS;
      const overdue = length >= options.maxSeconds * TICKS;
      if (!due && !overdue) {
        // A part ends before the frame that would take it past its target.
        if (partTicks !== undefined && unit.lead !== false && current.units.length > 0 && unit.time - current.partStart + leadSpacing > partTicks) closePart(unit.time);
        current.units.push(unit);
        return undefined;
      }
      if (!due) stats.forcedCuts++;
      const done = complete(unit.time);
      open(unit);
      return done;
    },
    cutAtLiveEdge() {
      if (!current) return undefined;
      const units = current.units;
      const last = units.length > 0 ? units[units.length - 1]!.time : current.partStart;
      // It ends one frame after its last one: the leading track's frame spacing.
      const done = complete(last + leadSpacing);
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
    get pendingParts() {
      return current?.parts ?? [];
    },
    get targetDuration() {
      return target;
    },
    stats,
  };
}
