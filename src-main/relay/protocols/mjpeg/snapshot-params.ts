import { HttpError } from '@main/platform/http/http-error';

export interface SnapshotParams {
  width?: number;
  height?: number;
  /** Clockwise, as ffmpeg's `transpose=1` for 90. */
  rotate: 0 | 90 | 180 | 270;
  /** A picture at most this old may come from memory; 0 = always a fresh one. */
  cacheMs: number;
}

const MAX_SIZE = 8192;
const MAX_CACHE_MS = 24 * 3600 * 1000;
const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `width|w`, `height|h`, `rotate`, `cache` of GET /api/frame.jpeg; bad values are a 400 that names them. */
export function parseSnapshotParams(query: URLSearchParams): SnapshotParams {
  const size = (names: string[]): number | undefined => {
    const name = names.find((n) => query.has(n));
    if (!name) return undefined;
    const raw = query.get(name)!;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < 1 || value > MAX_SIZE)
      throw new HttpError(400, `${name}=${raw} must be a whole number of pixels from 1 to ${MAX_SIZE}`);
    return value;
  };
  const rotateRaw = query.get('rotate') || '0';
  const rotate = rotateRaw === '-90' ? 270 : Number(rotateRaw); // go2rtc takes -90 for 270
  if (![0, 90, 180, 270].includes(rotate) || !/^-?\d+$/.test(rotateRaw))
    throw new HttpError(400, `rotate=${rotateRaw} must be 90, 180 or 270 (degrees clockwise)`);
  return {
    width: size(['width', 'w']),
    height: size(['height', 'h']),
    rotate: rotate as SnapshotParams['rotate'],
    cacheMs: parseDuration(query.get('cache')),
  };
}

/** Go-style durations as go2rtc users write them: `500ms`, `5s`, `1m30s`, `1h`; a bare number is seconds. */
export function parseDuration(raw: string | null): number {
  if (raw === null || raw === '') return 0;
  const bad = () => new HttpError(400, `cache=${raw} must be a duration such as 5s, 1m or 500ms`);
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(raw)) {
    ms = Number(raw) * 1000;
  } else {
    const parts = [...raw.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
    if (parts.length === 0 || parts.map((p) => p[0]).join('') !== raw) throw bad();
    ms = parts.reduce((total, [, n, unit]) => total + Number(n) * UNITS[unit!]!, 0);
  }
  if (!Number.isFinite(ms) || ms > MAX_CACHE_MS) throw bad();
  return Math.round(ms);
}
