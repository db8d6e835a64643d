import type { Span } from './timeline';

/** The longest export the API joins into one MP4. */
const EXPORT_LIMIT_MS = 6 * 3_600_000;

export type RangeCheck = { ok: true; range: Span } | { ok: false; reason: string };

/**
 * An export range as the user set it (either end first): put in order, checked against what
 * the API takes and against what was recorded (a range of nothing would be a 404).
 */
export function checkedRange(a: number, b: number, spans: readonly Span[]): RangeCheck {
  const range = { startMs: Math.min(a, b), endMs: Math.max(a, b) };
  if (range.endMs - range.startMs < 1_000) return { ok: false, reason: 'Choose a range of at least a second.' };
  if (range.endMs - range.startMs > EXPORT_LIMIT_MS) return { ok: false, reason: 'An export is at most 6 hours: choose a shorter range.' };
  if (!spans.some((span) => span.startMs < range.endMs && span.endMs > range.startMs))
    return { ok: false, reason: 'Nothing was recorded in this range.' };
  return { ok: true, range };
}

const DEFAULT_LENGTH_MS = 5 * 60_000;

/**
 * The range a new selection starts with: five minutes from the cursor within its span (or the
 * next one), or the last five minutes of the last span when the cursor is past everything.
 */
export function defaultRange(spans: readonly Span[], cursorMs: number): Span | undefined {
  const span = spans.find((s) => s.endMs > cursorMs);
  if (!span) {
    const last = spans.at(-1);
    return last && { startMs: Math.max(last.startMs, last.endMs - DEFAULT_LENGTH_MS), endMs: last.endMs };
  }
  const startMs = Math.max(span.startMs, cursorMs);
  return { startMs, endMs: Math.min(span.endMs, startMs + DEFAULT_LENGTH_MS) };
}

/** The object key an export into a bucket suggests: `exports/<stream>-<start in UTC>Z.mp4`, safe as a key. */
export const exportKey = (stream: string, startMs: number): string =>
  `exports/${stream.replace(/[^\w.-]+/g, '_')}-${new Date(startMs).toISOString().slice(0, 19).replace(/:/g, '-')}Z.mp4`;
