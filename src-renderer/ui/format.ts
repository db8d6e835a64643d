/** 3725 → "1 h 2 min"; 42 → "42 s". */
export function formatDuration(seconds: number): string {
  const s = Math.floor(seconds);
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min ${s % 60} s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** A value in the largest unit of `units` (each `step` times the one before) that keeps it ≥ 1. */
export function scaleToUnit(value: number, step: number, units: readonly string[]): { value: number; unit: string; index: number } {
  let scaled = value;
  let index = 0;
  while (scaled >= step && index < units.length - 1) {
    scaled /= step;
    index += 1;
  }
  return { value: scaled, unit: units[index]!, index };
}

/** 0 → "0 B"; 1536 → "1.5 KiB"; 5_000_000 → "4.8 MiB" (binary units, as file managers show). */
export function formatBytes(bytes: number): string {
  const { value, unit, index } = scaleToUnit(bytes, 1024, ['B', 'KiB', 'MiB', 'GiB', 'TiB']);
  return index === 0 ? `${Math.round(value)} B` : `${value < 10 ? value.toFixed(1) : Math.round(value)} ${unit}`;
}

/** `1280×720`, or nothing before the size is known. */
export const formatResolution = (width?: number, height?: number): string | undefined =>
  width && height ? `${width}×${height}` : undefined;

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** An ISO timestamp in the reader's locale and zone: "12 Mar 2026, 14:05"; text that is no date stays as it is. */
export function formatDateTime(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : dateTimeFormat.format(ms);
}
