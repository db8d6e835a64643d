/** What to do with a frame: begin the first segment, close the open one and begin the next, add it, or drop it. */
export type SegmentStep = 'start' | 'cut' | 'append' | 'skip';

export interface BoundaryFrame {
  /** The track segments are cut on: the first video track, or the audio of a stream without video. */
  lead: boolean;
  /** A video keyframe (audio frames are always true). */
  keyframe: boolean;
  /** Where the frame falls in the open segment, in seconds from its first frame. */
  seconds: number;
}

/** Float timestamps: a keyframe at 3.9999999 s of a 4 s segment is on time. */
const EPSILON = 1e-3;

/**
 * Where segments begin and end: every segment starts on a keyframe of the lead track (a
 * player can start there), the first at the first such keyframe; the open one is cut at the
 * first lead keyframe at or past the target length, so it is as long as the target or up to a
 * GOP longer. Frames before the first keyframe are dropped; so are other tracks' frames.
 */
export function segmentStep(open: boolean, frame: BoundaryFrame, targetSeconds: number): SegmentStep {
  if (!open) return frame.lead && frame.keyframe ? 'start' : 'skip';
  if (frame.lead && frame.keyframe && frame.seconds >= targetSeconds - EPSILON) return 'cut';
  return 'append';
}
