/** Buffered ranges as plain numbers (TimeRanges flattened). */
export type Ranges = ReadonlyArray<readonly [start: number, end: number]>;

export const toRanges = (buffered: TimeRanges): Array<[number, number]> =>
  Array.from({ length: buffered.length }, (_, i) => [buffered.start(i), buffered.end(i)] as [number, number]);

/** Live view should lag the newest frame by well under a second. */
const MAX_LAG_S = 1.5;
const TARGET_LAG_S = 0.3;
/** Keep a little history for seeking back; the rest is freed. */
const KEEP_S = 10;

/** Where to jump to catch up with live, or undefined when playback is close enough (or nothing is buffered). */
export function catchUpTarget(ranges: Ranges, currentTime: number): number | undefined {
  const last = ranges.at(-1);
  if (!last) return undefined;
  const [start, end] = last;
  if (currentTime < start) return Math.max(start, end - TARGET_LAG_S);
  return end - currentTime > MAX_LAG_S ? end - TARGET_LAG_S : undefined;
}

/** The range of old media to remove from a source buffer, or undefined when it is small. */
export function trimRange(ranges: Ranges, currentTime: number): [number, number] | undefined {
  const first = ranges[0];
  if (!first) return undefined;
  const until = currentTime - KEEP_S;
  return until > first[0] + 1 ? [first[0], until] : undefined;
}
