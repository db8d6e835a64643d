/**
 * A token bucket shaper: up to `size` sends at once, then `perMs` a millisecond on average.
 * Time is passed in (milliseconds, fractional), so the pacing is a plain function of it.
 */
export class TokenBucket {
  private tokens: number;
  private refilledAt: number;

  constructor(
    readonly size: number,
    readonly perMs: number,
    now: number,
  ) {
    this.tokens = size;
    this.refilledAt = now;
  }

  /** Whole sends allowed at `now`. */
  available(now: number): number {
    this.tokens = Math.min(this.size, this.tokens + Math.max(0, now - this.refilledAt) * this.perMs);
    this.refilledAt = now;
    return Math.floor(this.tokens);
  }

  /** Spends `count` sends (at most what `available` said). */
  take(count: number): void {
    this.tokens -= count;
  }
}
