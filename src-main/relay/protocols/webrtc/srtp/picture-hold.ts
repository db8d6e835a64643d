/**
 * How long a picture whose packets straddle event-loop turns may hold its first packets back
 * (ms): a camera's read often ends inside a picture, and sending at each turn's end made one
 * batch (a system call) per piece instead of one per picture. The RTSP server's TCP writer
 * holds the same way; so does a track's fan-out to all its viewers (`srtp-fanout.ts`).
 */
export const HOLD_MS = 1;

/**
 * When a sender's queued packets go: at the end of the event-loop turn they were queued in, or,
 * for video whose last queued packet left its picture open, when the picture ends or `HOLD_MS`
 * after the first of them, whichever comes first. A viewer's own sender and a track's fan-out
 * both gather their packets this way.
 */
export class PictureTurn {
  private since = 0;
  private open = false;
  private scheduled = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly ended = () => this.turnEnded();

  constructor(
    private readonly holdPictures: boolean,
    /** Whether packets are still waiting (a flush may have come sooner). */
    private readonly pending: () => boolean,
    /** Sends what waits. */
    private readonly send: () => void,
  ) {}

  /** A packet was queued: `first` if none was waiting before it; `marker` if it ends its picture. */
  added(first: boolean, marker: boolean): void {
    if (first) this.since = performance.now();
    this.open = !marker;
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.ended);
  }

  /** What waited is being sent now: no timer waits for it any more. */
  sending(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private turnEnded(): void {
    this.scheduled = false;
    if (!this.pending()) return;
    const left = this.holdPictures && this.open ? HOLD_MS - (performance.now() - this.since) : 0;
    if (left > 0) this.timer ??= setTimeout(this.send, left);
    else this.send();
  }
}
