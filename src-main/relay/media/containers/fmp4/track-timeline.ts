import type { DecodeTimeline, DecodedTime } from '../../frames/decode-timeline';
import { createTimestampUnwrapper } from '../../frames/timestamp-unwrapper';

/**
 * One track's times on the file's timeline, in its timescale: RTP timestamps unwrapped, counted
 * from an origin (the track's first frame at 0, or where `anchor` puts it).
 *
 * Timestamps are presentation times. Audio and video without B-frames decode in that order, so
 * decode time = presentation time, never going back (tfdt and sample durations are unsigned).
 * Video may have B-frames: its decode times come from a decode timeline (made by `decoder`
 * when the track starts, once its SPS is known), and its first presentation time is put at
 * least the timeline's `delay` into the file, so that the first decode time is not negative.
 */
export class TrackTimeline {
  private readonly unwrap = createTimestampUnwrapper();
  private origin?: { unwrapped: number; time: number };
  private decode?: DecodeTimeline;
  private last?: number;
  /** The gap between the last two decode times taken, for a sample whose successor is not known yet. */
  lastDelta?: number;

  constructor(
    readonly timescale: number,
    /** Timestamps are in this clock (the codec's); the timescale may differ (Opus is 48 kHz). */
    readonly clockRate: number,
    /** Video: makes the track's decode timeline (in the timescale) when the track starts. */
    private readonly decoder?: () => DecodeTimeline,
  ) {}

  get anchored(): boolean {
    return this.origin !== undefined;
  }

  /** Places the frame with `timestamp` at `seconds` of the file (before the track's first frame). */
  anchor(timestamp: number, seconds: number): void {
    this.decode = this.decoder?.();
    const delay = this.decode?.delay ?? 0;
    this.origin = { unwrapped: this.unwrap(timestamp), time: Math.max(delay, Math.round(seconds * this.timescale)) };
  }

  private position(timestamp: number): number {
    const ticks = this.unwrap(timestamp) - this.origin!.unwrapped;
    return this.origin!.time + Math.round((ticks * this.timescale) / this.clockRate);
  }

  /** Presentation time a frame would get (0 before the track has an origin); asking twice is harmless. */
  peek(timestamp: number): number {
    if (!this.origin) return 0;
    const time = this.position(timestamp);
    return this.decode ? time : Math.max(time, this.last ?? 0);
  }

  /** Presentation and decode time of a frame that goes into the file (the first one sets the origin if none). */
  take(timestamp: number, keyframe = false): DecodedTime {
    if (!this.origin) this.anchor(timestamp, 0);
    const time = this.position(timestamp);
    const taken = this.decode
      ? this.decode.next(time, keyframe)
      : { pts: Math.max(time, this.last ?? 0), dts: Math.max(time, this.last ?? 0) };
    if (this.last !== undefined && taken.dts > this.last) this.lastDelta = taken.dts - this.last;
    this.last = taken.dts;
    return taken;
  }
}
