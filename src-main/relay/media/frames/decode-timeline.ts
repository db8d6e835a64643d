/**
 * Decode times for video that RTP (and so `MediaFrame`) carries with presentation times only.
 *
 * Frames come in decode order. Without B-frames presentation times only grow, and the decode
 * time of each frame is its presentation time. With B-frames a frame may be shown before frames
 * decoded ahead of it; containers then need a decode time (DTS) besides the presentation time
 * (PTS): strictly increasing, and never after the frame's PTS.
 *
 * With a reorder depth d (at most d frames decoded before a frame are shown after it), every
 * frame with the k-th smallest PTS has arrived once frame k + d has. So frame n may take the
 * (n - d)-th smallest PTS as its DTS: the smallest of the last d + 1 PTS not used yet (a window
 * of d + 1 values). For a constant frame rate this is the usual DTS = PTS rank - d frames; with
 * gaps or drops it stays ordered. Nothing waits for later frames: each frame is timed as it comes.
 * A keyframe shown after every frame still in the window starts the window over, counting back
 * d frames from it: the same times for a steady stream, and after a gap (frames dropped for a
 * slow client) the jump in decode times comes at the keyframe, not d frames after it.
 *
 * d comes from the SPS when the encoder says it (`hint`): x264/x265 do, and the first frames are
 * then timed right from the start, `delay` (d frame durations) before their PTS, so outputs put
 * their first frame's PTS `delay` into the file. Without a hint d starts at 0 (DTS = PTS) and
 * grows when a frame's PTS is lower than those of frames before it. The frames already written
 * then had DTS = PTS, which leaves no room below the next one: until the window fills (a few
 * frames), DTS go up by one tick and the PTS of frames that would fall below their DTS are raised
 * to it: those few B-frames flash for an instant after the frame decoded before them (a brief
 * freeze at the start, no decoding error). A stream without B-frames whose SPS announces none
 * (or says nothing) never leaves DTS = PTS.
 */
export interface DecodeTimelineHint {
  /** Frames that may be shown after a later-decoded one (H.264 max_num_reorder_frames, H.265 sps_max_num_reorder_pics). */
  reorderDepth: number;
  /** One frame's duration in ticks, when the SPS says it (timing info). */
  frameDuration?: number;
}

export interface DecodeTimelineOptions {
  hint?: DecodeTimelineHint;
  /** A frame's duration in ticks until the stream shows one (default: 1/25 s at 90 kHz). */
  defaultFrameDuration?: number;
}

export interface DecodedTime {
  /** Presentation time: the frame's own, unless raised to `dts` while the reorder depth was learned. */
  pts: number;
  /** Decode time: strictly increasing, never after `pts`. */
  dts: number;
}

export interface DecodeTimeline {
  /**
   * The next frame in decode order, with its presentation time (unwrapped, in any clock that
   * only grows), and whether it is a keyframe (IDR/IRAP).
   */
  next(pts: number, keyframe?: boolean): DecodedTime;
  /**
   * How far the first frame's decode time lies before its presentation time (0 without B-frames):
   * an output that starts its decode times at 0 puts its first frame's PTS here.
   */
  readonly delay: number;
  /** Reorder depth in frames: the hint's, or as much as the stream has shown. */
  readonly depth: number;
}

/** H.264 allows up to 16 reference frames; no stream reorders further. */
const MAX_DEPTH = 16;
const DEFAULT_FRAME_DURATION = 90000 / 25;

export function createDecodeTimeline(options: DecodeTimelineOptions = {}): DecodeTimeline {
  const hinted = Math.min(MAX_DEPTH, Math.max(0, Math.floor(options.hint?.reorderDepth ?? 0)));
  let step = options.hint?.frameDuration ?? options.defaultFrameDuration ?? DEFAULT_FRAME_DURATION;
  let depth = hinted;
  /** PTS not used as a DTS yet, ascending: the reorder window. */
  const pending: number[] = [];
  /** The last PTS in decode order, to see how far a frame is reordered. */
  const recent: number[] = [];
  let previousPts: number | undefined;
  let lastDts: number | undefined;

  function learn(pts: number): void {
    // Further back than any reordering reaches: the source's clock started over, not a B-frame.
    // The window starts afresh (times cannot go back: they resume just after the last ones).
    if (lastDts !== undefined && pts < lastDts - (MAX_DEPTH + 1) * step) {
      pending.length = 0;
      recent.length = 0;
    }
    const later = recent.filter((t) => t > pts).length;
    if (later > depth) depth = Math.min(MAX_DEPTH, later);
    recent.push(pts);
    if (recent.length > MAX_DEPTH) recent.shift();
    // The shortest step between consecutive frames: a frame's duration, for the window's start.
    if (previousPts !== undefined && pts !== previousPts) step = Math.min(step, Math.abs(pts - previousPts));
    previousPts = pts;
  }

  return {
    next(pts, keyframe = false) {
      learn(pts);
      if (keyframe && pending.every((t) => t < pts)) pending.length = 0;
      let at = pending.findIndex((t) => t > pts);
      if (at < 0) at = pending.length;
      pending.splice(at, 0, pts);
      // A full window gives up its smallest PTS; until it fills, count back from it by frames.
      const candidate = pending.length > depth ? pending.shift()! : pending[0]! - (depth - pending.length + 1) * step;
      const dts = lastDts !== undefined && candidate <= lastDts ? lastDts + 1 : candidate;
      lastDts = dts;
      return { pts: Math.max(pts, dts), dts };
    },
    delay: hinted * step,
    get depth() {
      return depth;
    },
  };
}
