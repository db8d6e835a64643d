import { describe, expect, it } from 'vitest';
import { createRateMeter } from './rate-meter';

describe('rate meter', () => {
  it('measures bytes per second over the window', () => {
    const meter = createRateMeter(3000);
    meter.sample(0, 0);
    meter.sample(1000, 4_000_000);
    meter.sample(2000, 8_000_000);
    expect(meter.rate(2000)).toBe(4_000_000);
  });

  it('forgets samples older than the window', () => {
    const meter = createRateMeter(3000);
    meter.sample(0, 0);
    meter.sample(1000, 10_000_000); // a burst at the start
    meter.sample(5000, 11_000_000);
    meter.sample(6000, 12_000_000);
    // Only the last ~3 s count: 2 MB over 5 s since the sample at 1 s, which is the window's edge.
    expect(meter.rate(6000)).toBeCloseTo(2_000_000 / 5, 0);
  });

  it('falls to zero when nothing arrives for a whole window', () => {
    const meter = createRateMeter(3000);
    meter.sample(0, 0);
    meter.sample(1000, 1000);
    expect(meter.rate(4500)).toBe(0);
  });

  it('starts again when the total goes back', () => {
    const meter = createRateMeter(3000);
    meter.sample(0, 5000);
    meter.sample(1000, 0);
    meter.sample(2000, 1000);
    expect(meter.rate(2000)).toBe(1000);
  });

  it('has no rate from a single sample', () => {
    const meter = createRateMeter();
    meter.sample(0, 100);
    expect(meter.rate(0)).toBe(0);
  });
});
