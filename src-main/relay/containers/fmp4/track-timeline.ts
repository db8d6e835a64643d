import { createTimestampUnwrapper } from '../../frames/timestamp-unwrapper';

/**
 * One track's decode times on the file's timeline, in its timescale: RTP timestamps unwrapped,
 * counted from an origin (the track's first frame at 0, or where `anchor` puts it), never going
 * back (tfdt and sample durations are unsigned).
 */
export class TrackTimeline {
  private readonly unwrap = createTimestampUnwrapper();
  private origin?: { unwrapped: number; time: number };
  private last?: number;
  /** The gap between the last two frames taken, for a sample whose successor is not known yet. */
  lastDelta?: number;

  constructor(
    readonly timescale: number,
    /** Timestamps are in this clock (the codec's); the timescale may differ (Opus is 48 kHz). */
    readonly clockRate: number,
  ) {}

  get anchored(): boolean {
    return this.origin !== undefined;
  }

  /** Places the frame with `timestamp` at `seconds` of the file (before the track's first frame). */
  anchor(timestamp: number, seconds: number): void {
    this.origin = { unwrapped: this.unwrap(timestamp), time: Math.max(0, Math.round(seconds * this.timescale)) };
  }

  /** Decode time a frame would get (0 before the track has an origin); asking twice is harmless. */
  peek(timestamp: number): number {
    if (!this.origin) return 0;
    const ticks = this.unwrap(timestamp) - this.origin.unwrapped;
    const time = this.origin.time + Math.round((ticks * this.timescale) / this.clockRate);
    return Math.max(time, this.last ?? 0);
  }

  /** Decode time of a frame that goes into the file (the first one sets the origin if none). */
  take(timestamp: number): number {
    if (!this.origin) this.anchor(timestamp, 0);
    const time = this.peek(timestamp);
    if (this.last !== undefined && time > this.last) this.lastDelta = time - this.last;
    this.last = time;
    return time;
  }
}
