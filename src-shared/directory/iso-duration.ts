const DURATION = /^P(?!$)(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/**
 * An ISO 8601 duration (P14D, PT12H, P1DT6H) in milliseconds, for comparing two of them.
 * Years and months have no fixed length; they count as 365 and 30 days, which is close enough
 * to tell which of two deadlines comes first. Null when the text is not a duration.
 */
export function isoDurationMs(text: string): number | null {
  const match = DURATION.exec(text);
  if (!match) return null;
  const [, years, months, weeks, days, hours, minutes, seconds] = match.map((part) => (part === undefined ? 0 : Number(part)));
  const totalDays = years! * 365 + months! * 30 + weeks! * 7 + days!;
  return ((totalDays * 24 + hours!) * 60 + minutes!) * 60_000 + seconds! * 1000;
}
