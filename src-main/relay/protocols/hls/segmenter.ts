import { chooseTarget, cutHere, maxSegmentTicks, partDuration, segmentDuration, startBoundaries, type CutState } from './segment-cuts';

/** One muxed frame as the segmenter sees it. */
export interface SegmentUnit {
  /** 90 kHz ticks on the output's time line. */
  time: number;
  /** A segment may begin here: a video keyframe (or any audio frame of an audio-only output). */
  cut: boolean;
  /**
   * A frame of the leading track (the video, or the audio of an audio-only output): segments and
   * parts begin and end at these. Undefined counts as true.
   */
  lead?: boolean;
}

/** A partial segment (Low-Latency HLS): a run of a segment's frames, playable as soon as it is out. */
export interface Part {
  /** Its place in its segment, from 0. */
  index: number;
  /** Seconds, from its first frame to the next part's first frame (never above the part target). */
  duration: number;
  /** It begins with a keyframe. */
  independent: boolean;
  data: Uint8Array;
}

export interface Segment {
  /** Its media sequence number: counts up from 0 for the session, never reused. */
  sequence: number;
  /** Seconds on the output's time line where its first frame is (EXT-X-PROGRAM-DATE-TIME counts from it). */
  start: number;
  /** Seconds, from its first frame to the next segment's first frame; rounded, never above the target duration. */
  duration: number;
  /** It begins with a keyframe, so a player may start with it. */
  independent: boolean;
  data: Uint8Array;
  /** With `partSeconds`: its parts, whose bytes laid end to end are `data`. */
  parts: readonly Part[];
}

export interface SegmenterOptions<T extends SegmentUnit> {
  /** A segment that began at a keyframe ends at the first keyframe after it is this long (seconds). */
  minSeconds: number;
  /** The highest target duration: a stream without keyframes in time is cut before a segment would round above it. */
  maxSeconds: number;
  /** The first playlist lists this many segments, cut from the session's first GOP. */
  startSegments: number;
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
  get(sequence: number): Segment | undefined;
  /** Completed segments still kept, oldest first. */
  readonly segments: readonly Segment[];
  /** The sequence number of the segment being filled now (the next to complete). */
  readonly pending: number;
  /** The parts of the segment being filled that are complete (with `partSeconds`). */
  readonly pendingParts: readonly Part[];
  /** EXT-X-TARGETDURATION: fixed by the first GOP (or by `startNow`) for the session's lifetime. */
  readonly targetDuration: number;
  /**
   * A playlist has to go out before the first GOP ended (a GOP longer than the first playlist
   * waits, or no keyframe at all): the target duration is fixed now, at its highest, and what
   * is in becomes the first segments, ending at the live edge, if there is enough of it.
   */
  startNow(): void;
  /** The first GOP is in, as the first `startSegments` segments: the first playlist can be answered. */
  readonly started: boolean;
  readonly stats: { segments: number; skipped: number; forcedCuts: number; clamped: number };
}

const TICKS = 90000;

interface OpenSegment<T> {
  start: number;
  independent: boolean;
  /** Frames not yet in a part (all of them without parts). */
  units: T[];
  partStart: number;
  parts: Part[];
}

/** Frame spacing of the leading track, and keyframe spacing (a GOP), kept in `state`: the cuts look ahead with them. */
function createSpacingWatch(state: CutState) {
  let lastLead: number | undefined;
  let lastKeyframe: number | undefined;
  return {
    observe(unit: SegmentUnit): void {
      if (unit.lead === false) return;
      if (lastLead !== undefined && unit.time > lastLead) state.leadSpacing = unit.time - lastLead;
      lastLead = unit.time;
      if (!unit.cut) return;
      if (lastKeyframe !== undefined && unit.time > lastKeyframe) state.gop = unit.time - lastKeyframe;
      lastKeyframe = unit.time;
    },
    lastLead: () => lastLead,
  };
}

/** One buffer for a segment, its parts views of it, so nothing is kept twice. */
function joinParts(parts: Part[]): { data: Uint8Array; parts: Part[] } {
  const data = new Uint8Array(parts.reduce((sum, part) => sum + part.data.length, 0));
  let offset = 0;
  const views = parts.map((part) => {
    data.set(part.data, offset);
    const view = { ...part, data: data.subarray(offset, offset + part.data.length) };
    offset += part.data.length;
    return view;
  });
  return { data, parts: views };
}

/**
 * Cuts a live stream of muxed frames into HLS segments under a target duration fixed for the
 * session, keeping only the last `keep`. The session's first GOP (the stream's cached one, then
 * live frames up to the next keyframe) becomes its first `startSegments` segments, so the first
 * playlist has them all and every later segment begins at a keyframe; the GOP also sets the
 * target duration. Then segments end at keyframes, about `minSeconds` long (a camera's GOP
 * decides), or before a segment would round above the target. Pure: the session feeds it and
 * serves what it holds.
 */
export function createSegmenter<T extends SegmentUnit>(options: SegmenterOptions<T>): Segmenter<T> {
  const kept: Segment[] = [];
  const stats = { segments: 0, skipped: 0, forcedCuts: 0, clamped: 0 };
  const partTicks = options.partSeconds === undefined ? undefined : Math.round(options.partSeconds * TICKS);
  const highest = Math.max(1, Math.floor(options.maxSeconds));
  let current: OpenSegment<T> | undefined;
  /** The first GOP while it comes in; undefined once it is cut into the first segments. */
  let first: { units: T[]; leads: T[]; intra: boolean } | undefined = { units: [], leads: [], intra: true };
  let fixed: number | undefined;
  /** After `startNow` the next unit opens a segment even if it is not a keyframe. */
  let continueWithNext = false;
  let sequence = 0;
  const state: CutState = { target: 1, minTicks: Math.round(options.minSeconds * TICKS), leadSpacing: TICKS / 25 };
  const spacing = createSpacingWatch(state);
  const observe = spacing.observe;

  /** Closes the frames gathered since the last part into one, ending at `end`. */
  function closePart(end: number): void {
    const open = current!;
    if (open.units.length === 0) return;
    const duration = partDuration(end - open.partStart, options.partSeconds!, stats);
    open.parts.push({ index: open.parts.length, duration, independent: open.units[0]!.cut, data: options.build(open.units) });
    open.units = [];
    open.partStart = end;
  }

  function add(unit: T): void {
    const open = current!;
    // A part ends before the frame that would take it past its target.
    if (
      partTicks !== undefined &&
      unit.lead !== false &&
      open.units.length > 0 &&
      unit.time - open.partStart + state.leadSpacing > partTicks
    )
      closePart(unit.time);
    open.units.push(unit);
  }

  function complete(end: number): Segment {
    const open = current!;
    let data: Uint8Array;
    let parts: Part[] = [];
    if (partTicks === undefined) {
      data = options.build(open.units);
    } else {
      closePart(end);
      ({ data, parts } = joinParts(open.parts));
    }
    const duration = segmentDuration(end - open.start, state.target, stats);
    const segment: Segment = { sequence: sequence++, start: open.start / TICKS, duration, independent: open.independent, data, parts };
    kept.push(segment);
    if (kept.length > options.keep) kept.shift();
    stats.segments++;
    return segment;
  }

  const open = (unit: T) => {
    current = { start: unit.time, independent: unit.cut, units: [unit], partStart: unit.time, parts: [] };
  };

  /** The first GOP, ended by `unit` (or by the live edge), becomes the first segments; `unit` opens the next. */
  function startWith(gop: NonNullable<typeof first>, unit: T | undefined): Segment {
    const end = unit?.time ?? spacing.lastLead()! + state.leadSpacing;
    const span = end - gop.units[0]!.time;
    state.target = fixed ?? chooseTarget(span, highest);
    const boundaries = startBoundaries(gop.leads, options.startSegments);
    first = undefined;
    open(gop.units[0]!);
    for (const next of gop.units.slice(1)) {
      if (boundaries.has(next)) {
        complete(next.time);
        open(next);
      } else add(next);
    }
    const last = complete(end);
    if (unit) open(unit);
    else {
      current = undefined;
      continueWithNext = true;
    }
    return last;
  }

  /** A unit of the first GOP: gathered until the next keyframe (or until it would be too long). */
  function gather(gop: NonNullable<typeof first>, unit: T): Segment | undefined {
    if (gop.units.length === 0 && !unit.cut) {
      stats.skipped++;
      return undefined;
    }
    if (gop.units.length > 0 && unit.lead !== false && gop.leads.length >= options.startSegments) {
      const span = unit.time - gop.units[0]!.time;
      // An audio-only output (every frame a cut point) gathers the minimum length instead.
      const ends = unit.cut ? !gop.intra || span >= state.minTicks : span + state.leadSpacing > maxSegmentTicks(fixed ?? highest);
      if (ends) {
        if (!unit.cut) stats.forcedCuts++;
        return startWith(gop, unit);
      }
    }
    gop.units.push(unit);
    if (unit.lead !== false) {
      gop.leads.push(unit);
      if (!unit.cut) gop.intra = false;
    }
    return undefined;
  }

  return {
    push(unit) {
      observe(unit);
      if (first) return gather(first, unit);
      if (!current) {
        if (!unit.cut && !continueWithNext) {
          stats.skipped++;
          return undefined;
        }
        continueWithNext = false;
        open(unit);
        return undefined;
      }
      const filling = current;
      const cut =
        unit.lead === false
          ? undefined
          : cutHere(state, { length: unit.time - filling.start, keyframe: unit.cut, independent: filling.independent });
      if (!cut) {
        add(unit);
        return undefined;
      }
      if (cut === 'limit') stats.forcedCuts++;
      const done = complete(unit.time);
      open(unit);
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
      return fixed ?? state.target;
    },
    startNow() {
      if (!first) return;
      fixed ??= highest;
      if (first.leads.length >= options.startSegments) startWith(first, undefined);
    },
    get started() {
      return first === undefined;
    },
    stats,
  };
}
