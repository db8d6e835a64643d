/**
 * Durations and sizes as the config writes them: `10s`, `1.5m`, `500ms`, `1h` or a bare number
 * of seconds; `512MB`, `2GB`, `1GiB` or a bare number of bytes. Undefined for anything else, so
 * the caller's message can name the key.
 */
export function parseDurationMs(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value * 1000) : undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|min|h)?\s*$/i.exec(value);
  if (!match) return undefined;
  const unit = (match[2] ?? 's').toLowerCase();
  const factor = unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'h' ? 3_600_000 : 60_000;
  return Math.round(Number(match[1]) * factor);
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};

export function parseBytes(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]i?b|b)?\s*$/i.exec(value);
  if (!match) return undefined;
  return Math.floor(Number(match[1]) * SIZE_UNITS[(match[2] ?? '').toLowerCase()]!);
}
