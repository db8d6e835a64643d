export { formatResolution } from '@renderer/ui/format';

/** `2.1 Mbit/s`, `640 kbit/s`. */
export function formatBitrate(bitsPerSecond?: number): string | undefined {
  if (bitsPerSecond === undefined || !Number.isFinite(bitsPerSecond)) return undefined;
  if (bitsPerSecond >= 1_000_000) return `${(bitsPerSecond / 1_000_000).toFixed(1)} Mbit/s`;
  return `${Math.round(bitsPerSecond / 1000)} kbit/s`;
}
