import { createTimestampUnwrapper } from '../../frames/timestamp-unwrapper';

/**
 * One time line for all tracks of an output, in 90 kHz ticks from the output's start.
 *
 * RTP gives each track its own clock with a random start, so tracks cannot be compared by
 * timestamp. Each track's first frame is placed at the latest time any other track has reached
 * (0 for the first track): the stream's cached keyframe comes first and at once, and the first
 * audio frame, which arrives live a moment later, lines up with the newest video frame.
 */
export interface TrackTimeline {
  /**
   * The frame's time in 90 kHz ticks (an unbounded number: PTS wrapping is the writer's job).
   * `delay` puts a track's first frame that much after the others' latest (video with B-frames:
   * its first decode time then lands there, not before).
   */
  time(track: number, timestamp: number, clockRate: number, delay?: number): number;
  /** The furthest time any track reached. */
  readonly latest: number;
}

export function createTrackTimeline(): TrackTimeline {
  const tracks = new Map<number, { unwrap: (t: number) => number; first: number; start: number }>();
  let latest = 0;
  return {
    time(track, timestamp, clockRate, delay = 0) {
      let state = tracks.get(track);
      if (!state) {
        const unwrap = createTimestampUnwrapper();
        state = { unwrap, first: unwrap(timestamp >>> 0), start: latest + delay };
        tracks.set(track, state);
      }
      const ticks = state.start + Math.round(((state.unwrap(timestamp >>> 0) - state.first) * 90000) / clockRate);
      if (ticks > latest) latest = ticks;
      return ticks;
    },
    get latest() {
      return latest;
    },
  };
}
