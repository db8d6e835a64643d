import type { Traffic } from '@shared/contract/cdn';
import { scaleToUnit } from '@renderer/ui/format';

/** `1.5 Mbit/s`: bandwidth in decimal bits, as CDN bills and dashboards show it. */
export function formatBitrate(bitsPerSecond: number): string {
  const { value, unit, index } = scaleToUnit(bitsPerSecond, 1000, ['bit/s', 'kbit/s', 'Mbit/s', 'Gbit/s', 'Tbit/s']);
  return `${index === 0 ? Math.round(value) : value.toFixed(value < 10 ? 2 : 1)} ${unit}`;
}

/** Flux adds up over the range; bandwidth has a peak (when, and on which domain). */
export function trafficSummary(traffic: Traffic): {
  total: number;
  peak: number;
  peakAt: string | undefined;
  peakDomain: string | undefined;
} {
  let total = 0;
  let peak = 0;
  let peakAt: string | undefined;
  let peakDomain: string | undefined;
  for (const { domain, values } of traffic.series) {
    values.forEach((value, i) => {
      total += value;
      if (value > peak) {
        peak = value;
        peakAt = traffic.time[i];
        peakDomain = domain;
      }
    });
  }
  return { total, peak, peakAt, peakDomain };
}

/** Slot labels (`2026-11-25 13:00:00`, UTC) as seconds since the epoch, for the chart's x axis. */
export const slotSeconds = (time: readonly string[]): number[] => time.map((label) => Date.parse(`${label.replace(' ', 'T')}Z`) / 1000);
