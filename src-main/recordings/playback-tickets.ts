import { createTicketStore } from '../platform/ticket-store';

export interface PlaybackTickets {
  issue(stream: string, now?: number): { ticket: string; expiresAtMs: number };
  /** The stream of a live ticket, or undefined when it is unknown or expired. */
  streamOf(ticket: string, now?: number): string | undefined;
}

/**
 * Random tickets that open one stream's recordings to the console page that asked for them
 * through the contract (only the console can): its `<video>`, hls.js and downloads then read
 * the ticket's paths on the API's origin, also from `app://console`, which is another site to
 * the API. A ticket gives no more than the page already has; it expires, at most `limit` are kept.
 */
export function createPlaybackTickets(ttlMs = 6 * 3_600_000, limit = 500): PlaybackTickets {
  const store = createTicketStore<string>(ttlMs, limit);
  return { issue: (stream, now) => store.issue(stream, now), streamOf: (ticket, now) => store.find(ticket, now) };
}
