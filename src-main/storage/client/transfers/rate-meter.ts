/**
 * Bytes per second over the last few seconds of a transfer: steady enough to show, quick enough
 * to fall to zero when a transfer stalls. Pure: the caller gives the clock.
 */
export interface RateMeter {
  /** Records the transfer's running total at time `now` (ms). */
  sample(now: number, total: number): void;
  rate(now: number): number;
}

export function createRateMeter(windowMs = 3000): RateMeter {
  const samples: Array<{ at: number; total: number }> = [];
  const trim = (now: number) => {
    // Keep one sample older than the window, so the rate spans the whole window.
    while (samples.length > 2 && samples[1]!.at <= now - windowMs) samples.shift();
  };
  return {
    sample(now, total) {
      const last = samples.at(-1);
      // A total that went back (a restarted download) starts the measure again.
      if (last && total < last.total) samples.length = 0;
      if (last && last.at === now) last.total = total;
      else samples.push({ at: now, total });
      trim(now);
    },
    rate(now) {
      trim(now);
      const first = samples[0];
      const last = samples.at(-1);
      if (!first || !last || last === first) return 0;
      // Nothing new for a whole window: stalled.
      if (now - last.at >= windowMs) return 0;
      return ((last.total - first.total) * 1000) / Math.max(now - first.at, 1);
    },
  };
}
