/** What of a calendar event says which stream records it. */
export interface MatchableEvent {
  subject: string | null;
  location: string | null;
  /** Graph's `categories` (anything else is no category). */
  categories?: unknown;
}

/** A letter, digit or `_` next to the name makes it part of another word (`cam` is not in `camera`). */
const WORD = /[\p{L}\p{N}_]/u;

/** Whether `text` holds `name` as a word of its own, ignoring case. */
function holdsWord(text: string, name: string): boolean {
  const haystack = text.toLowerCase();
  const needle = name.toLowerCase();
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    const before = haystack[at - 1];
    const after = haystack[at + needle.length];
    if ((before === undefined || !WORD.test(before)) && (after === undefined || !WORD.test(after))) return true;
  }
  return false;
}

/**
 * Whether an event asks for `stream` to be recorded: its location or subject names the stream
 * (as a word, any case: `Room CAM`, `cam: weekly review`), or one of its categories is
 * `record:<stream>` (any case, spaces around ignored).
 */
export function eventNamesStream(event: MatchableEvent, stream: string): boolean {
  if (stream.trim() === '') return false;
  if (event.location && holdsWord(event.location, stream)) return true;
  if (event.subject && holdsWord(event.subject, stream)) return true;
  const wanted = `record:${stream}`.toLowerCase();
  return (
    Array.isArray(event.categories) &&
    event.categories.some((category) => typeof category === 'string' && category.trim().toLowerCase() === wanted)
  );
}
