/** A recorded stretch of time (ms since the epoch): segments that follow each other without a gap. */
export interface Span {
  startMs: number;
  endMs: number;
}

/** Something laid on the timeline, in pixels from its left edge. */
export interface Placed<T> {
  item: T;
  left: number;
  width: number;
}

/** Segments closer than this are one span: the recorder dates a segment within a second of the previous one's end. */
const JOIN_GAP_MS = 1_000;

/** Segments (sorted or not) as spans: neighbours less than `maxGapMs` apart are joined. */
export function spansOf(segments: readonly Span[], maxGapMs = JOIN_GAP_MS): Span[] {
  const sorted = [...segments].sort((a, b) => a.startMs - b.startMs);
  const spans: Span[] = [];
  for (const { startMs, endMs } of sorted) {
    const last = spans.at(-1);
    if (last && startMs - last.endMs < maxGapMs) last.endMs = Math.max(last.endMs, endMs);
    else spans.push({ startMs, endMs });
  }
  return spans;
}

/** The gaps between spans within the day: what was not recorded. */
export function gapsOf(spans: readonly Span[], day: Span): Span[] {
  const gaps: Span[] = [];
  let at = day.startMs;
  for (const span of spans) {
    if (span.startMs > at) gaps.push({ startMs: at, endMs: Math.min(span.startMs, day.endMs) });
    at = Math.max(at, span.endMs);
    if (at >= day.endMs) break;
  }
  if (at < day.endMs) gaps.push({ startMs: at, endMs: day.endMs });
  return gaps.filter((gap) => gap.endMs > gap.startMs);
}

/**
 * Items of the day as boxes on a timeline `width` pixels wide: cut to the day, at least one
 * pixel wide so a short recording stays visible, nothing for items outside the day.
 */
export function layout<T extends Span>(items: readonly T[], day: Span, width: number): Placed<T>[] {
  const scale = width / (day.endMs - day.startMs);
  const placed: Placed<T>[] = [];
  for (const item of items) {
    const start = Math.max(item.startMs, day.startMs);
    const end = Math.min(item.endMs, day.endMs);
    if (end <= start) continue;
    const left = (start - day.startMs) * scale;
    placed.push({ item, left, width: Math.max(1, Math.min(width - left, (end - start) * scale)) });
  }
  return placed;
}

/** The time under pixel `x` of the timeline, kept within the day. */
export function timeAtX(x: number, day: Span, width: number): number {
  const fraction = width > 0 ? Math.min(1, Math.max(0, x / width)) : 0;
  return Math.round(day.startMs + fraction * (day.endMs - day.startMs));
}

/** Where a time sits on the timeline, in pixels. */
export const xOfTime = (ms: number, day: Span, width: number): number =>
  ((Math.min(day.endMs, Math.max(day.startMs, ms)) - day.startMs) / (day.endMs - day.startMs)) * width;

/**
 * What playing from `ms` means: the span holding it and the time itself, or, in a gap, the
 * start of the next span; nothing after the last span.
 */
export function playableFrom(spans: readonly Span[], ms: number): { span: Span; fromMs: number } | undefined {
  for (const span of spans) {
    if (ms < span.startMs) return { span, fromMs: span.startMs };
    if (ms < span.endMs) return { span, fromMs: ms };
  }
  return undefined;
}

/**
 * Next (`+1`): the first span starting after `ms`. Previous (`-1`), as players do: the start of
 * the span playing, or, within its first second, of the one before.
 */
export function neighbourSpan(spans: readonly Span[], ms: number, direction: 1 | -1): Span | undefined {
  if (direction === 1) return spans.find((span) => span.startMs > ms);
  return spans.findLast((span) => span.startMs < ms - 1_000);
}

/** What the timeline shows at a zoom: `lengthMs` of the day around `centreMs`, kept within the day. */
export function viewWindow(day: Span, centreMs: number, lengthMs: number): Span {
  const length = Math.min(lengthMs, day.endMs - day.startMs);
  const startMs = Math.min(day.endMs - length, Math.max(day.startMs, Math.round(centreMs - length / 2)));
  return { startMs, endMs: startMs + length };
}
