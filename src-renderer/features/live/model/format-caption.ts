/** `1280×720`, or nothing before the first picture. */
export const formatResolution = (width?: number, height?: number): string | undefined => (width && height ? `${width}×${height}` : undefined);

/** `2.1 Mbit/s`, `640 kbit/s`. */
export function formatBitrate(bitsPerSecond?: number): string | undefined {
  if (bitsPerSecond === undefined || !Number.isFinite(bitsPerSecond)) return undefined;
  if (bitsPerSecond >= 1_000_000) return `${(bitsPerSecond / 1_000_000).toFixed(1)} Mbit/s`;
  return `${Math.round(bitsPerSecond / 1000)} kbit/s`;
}
