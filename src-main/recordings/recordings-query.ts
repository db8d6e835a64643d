/** Why a recordings request was refused, with the HTTP status it answers. */
export class RecordingsQueryError extends Error {
  override name = 'RecordingsQueryError';
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}

/** ISO 8601 with a zone (`Z` or `+08:00`), seconds and fractions optional; or a date alone (UTC midnight). */
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;

/** An ISO 8601 time in ms since the epoch; throws saying what is wrong. */
export function parseIsoTime(name: string, value: string): number {
  const match = ISO_TIME.exec(value);
  const ms = match ? Date.parse(match[4] === undefined ? `${value}T00:00:00Z` : value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')) : NaN;
  // Date.parse rolls 2026-02-30 into March; a date that does not exist is a mistake, not a day.
  const realDate = match && Number.isFinite(ms) && new Date(Date.UTC(+match[1]!, +match[2]! - 1, +match[3]!)).getUTCDate() === +match[3]!;
  if (!realDate || Number(match[4] ?? 0) > 23 || Number(match[5] ?? 0) > 59 || Number(match[6] ?? 0) > 59) {
    throw new RecordingsQueryError(
      400,
      `${name} must be a time in ISO 8601 with its zone, e.g. 2026-11-27T08:00:00Z, not "${value.slice(0, 64)}"`,
    );
  }
  return ms;
}

export interface RecordingsQuery {
  src: string;
  startMs?: number;
  endMs?: number;
}

export interface QueryRules {
  /** The range must start somewhere (a playlist, a download): all of a month's recordings is not one request. */
  startRequired: boolean;
  /** The longest range, ms. */
  maxRangeMs: number;
  now: number;
}

/** `src`, `start`, `end` of `/api/recordings*`: a named stream (never a URL) and a range; 400 naming what is wrong. */
export function parseRecordingsQuery(query: URLSearchParams, rules: QueryRules): RecordingsQuery {
  const src = query.get('src')?.trim();
  if (!src) throw new RecordingsQueryError(400, 'src is required: the name of a recorded stream, e.g. ?src=cam');
  if (query.getAll('src').length > 1) throw new RecordingsQueryError(400, 'src is given more than once: name one recorded stream');
  const start = query.get('start');
  const end = query.get('end');
  const startMs = start === null || start === '' ? undefined : parseIsoTime('start', start);
  const endMs = end === null || end === '' ? undefined : parseIsoTime('end', end);
  if (rules.startRequired && startMs === undefined)
    throw new RecordingsQueryError(
      400,
      'start is required: the time the range begins, e.g. start=2026-11-27T08:00:00Z (end defaults to now)',
    );
  const to = endMs ?? (startMs !== undefined ? rules.now : undefined);
  if (startMs !== undefined && to !== undefined) {
    if (to <= startMs)
      throw new RecordingsQueryError(400, `end (${new Date(to).toISOString()}) must be after start (${new Date(startMs).toISOString()})`);
    if (to - startMs > rules.maxRangeMs)
      throw new RecordingsQueryError(
        400,
        `the range from start to end may be at most ${rules.maxRangeMs / 3_600_000} hours; this one is ${((to - startMs) / 3_600_000).toFixed(1)}`,
      );
  }
  return { src, ...(startMs !== undefined ? { startMs } : {}), ...(to !== undefined ? { endMs: to } : {}) };
}

/** `t` of a segment URL: where the segment goes on the playlist's timeline, in ms. */
export function parseOffsetMs(value: string | null): number {
  if (value === null || value === '') return 0;
  const ms = Number(value);
  if (!/^\d{1,13}$/.test(value) || !Number.isSafeInteger(ms))
    throw new RecordingsQueryError(400, `t must be a whole number of ms from the playlist's start, not "${value.slice(0, 32)}"`);
  return ms;
}
