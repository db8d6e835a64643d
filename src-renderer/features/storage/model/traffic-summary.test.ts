import { describe, expect, it } from 'vitest';
import { formatBitrate, slotSeconds, trafficSummary } from './traffic-summary';

describe('traffic summary', () => {
  it('adds flux up and finds the peak with its time and domain', () => {
    const summary = trafficSummary({
      time: ['2026-11-25 00:00:00', '2026-11-25 01:00:00'],
      series: [
        { domain: 'a.example.com', values: [10, 30] },
        { domain: 'b.example.com', values: [50, 0] },
      ],
    });
    expect(summary).toEqual({ total: 90, peak: 50, peakAt: '2026-11-25 00:00:00', peakDomain: 'b.example.com' });
  });

  it('has no peak in an empty range', () => {
    expect(trafficSummary({ time: ['2026-11-25 00:00:00'], series: [{ domain: 'a', values: [0] }] })).toMatchObject({
      total: 0,
      peak: 0,
      peakAt: undefined,
    });
  });

  it('writes bandwidth in decimal bits', () => {
    expect(formatBitrate(512)).toBe('512 bit/s');
    expect(formatBitrate(1_500_000)).toBe('1.50 Mbit/s');
    expect(formatBitrate(25_000_000)).toBe('25.0 Mbit/s');
  });

  it('reads slot labels as UTC', () => {
    expect(slotSeconds(['1970-01-01 00:01:00'])).toEqual([60]);
  });
});
