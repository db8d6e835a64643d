/** A playlist entry as the player read it: where it sits on the media timeline and the wall-clock time it shows. */
export interface PlaylistEntry {
  /** Seconds on the player's timeline. */
  start: number;
  duration: number;
  /** `EXT-X-PROGRAM-DATE-TIME`: ms since the epoch. */
  programDateTimeMs: number;
}

/**
 * The player's time (s) that shows wall-clock time `ms`, or undefined when no entry holds it.
 * The playlist is one continuous timeline across gaps in the recording, where only the program
 * date-time jumps, so the entry, not arithmetic on the day, says where a time is.
 */
export function mediaTimeOf(entries: readonly PlaylistEntry[], ms: number): number | undefined {
  for (const entry of entries) {
    const offset = (ms - entry.programDateTimeMs) / 1000;
    if (offset >= 0 && offset < entry.duration) return entry.start + offset;
  }
  return undefined;
}

/** The wall-clock time (ms) the player shows at its time `seconds`. */
export function wallTimeOf(entries: readonly PlaylistEntry[], seconds: number): number | undefined {
  let found: PlaylistEntry | undefined;
  for (const entry of entries) {
    if (entry.start > seconds) break;
    found = entry;
  }
  if (!found) return undefined;
  return Math.round(found.programDateTimeMs + Math.min(seconds - found.start, found.duration) * 1000);
}
