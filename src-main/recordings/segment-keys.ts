/**
 * Object keys of segments: `<prefix><YYYY-MM-DD>/<HH-MM-SS.mmm>Z.mp4`, the segment's start in
 * UTC, so keys sort by time within the prefix and a day is one folder to list.
 */
export function segmentKey(prefix: string, startMs: number): string {
  const iso = new Date(startMs).toISOString(); // 2026-11-27T08:15:03.250Z
  return `${prefix}${iso.slice(0, 10)}/${iso.slice(11, 23).replace(/:/g, '-')}Z.mp4`;
}

const NAME = /^(\d{4})-(\d{2})-(\d{2})\/(\d{2})-(\d{2})-(\d{2})\.(\d{3})Z\.mp4$/;

/**
 * The start (ms since the epoch) a segment key names, or undefined for any key that is not
 * exactly a segment of this prefix: another prefix, another form, a date that does not exist.
 */
export function segmentStart(prefix: string, key: string): number | undefined {
  if (!key.startsWith(prefix)) return undefined;
  const match = NAME.exec(key.slice(prefix.length));
  if (!match) return undefined;
  const [year, month, day, hour, minute, second, ms] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const start = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  // Date.UTC rolls 2026-02-30 over into March: such a key was not made here.
  return segmentKey(prefix, start) === key ? start : undefined;
}

/** A segment that starts this long before a range still reaches into it (segments are at most 10 min). */
const LOOKBACK_MS = 3_600_000;

/** The day folders (`<prefix>YYYY-MM-DD/`) that can hold segments overlapping [start, end), oldest first. */
export function dayFolders(prefix: string, startMs: number, endMs: number): string[] {
  const folders: string[] = [];
  const first = Math.floor((startMs - LOOKBACK_MS) / 86_400_000);
  const last = Math.floor(endMs / 86_400_000);
  for (let day = first; day <= last; day++) folders.push(`${prefix}${new Date(day * 86_400_000).toISOString().slice(0, 10)}/`);
  return folders;
}
