/** A segment as far as usage counts it. */
interface CountedSegment {
  startMs: number;
  bytes: number;
}

/**
 * Bytes and segments per day: `dayStartsMs` are the rising starts of the days (the viewer's
 * midnights, so days of 23 or 25 hours count right), the last one the end of the last day. A
 * segment counts in the day its start falls in; one outside every day does not count.
 */
export function usagePerDay(
  segments: readonly CountedSegment[],
  dayStartsMs: readonly number[],
): Array<{ startMs: number; bytes: number; segments: number }> {
  const days = dayStartsMs.slice(0, -1).map((startMs) => ({ startMs, bytes: 0, segments: 0 }));
  for (const segment of segments) {
    // The last day whose start is at or before the segment's; few days, so a scan is enough.
    let index = -1;
    for (let i = 0; i < days.length && dayStartsMs[i]! <= segment.startMs; i++) index = i;
    if (index < 0 || segment.startMs >= dayStartsMs[dayStartsMs.length - 1]!) continue;
    days[index]!.bytes += segment.bytes;
    days[index]!.segments += 1;
  }
  return days;
}
