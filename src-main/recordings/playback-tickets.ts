import { randomBytes } from 'node:crypto';

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
  const tickets = new Map<string, { stream: string; expiresAtMs: number }>();
  return {
    issue(stream, now = Date.now()) {
      for (const [id, entry] of tickets) if (entry.expiresAtMs <= now) tickets.delete(id);
      // Oldest first out: a Map iterates in insertion order.
      while (tickets.size >= limit) tickets.delete(tickets.keys().next().value!);
      const ticket = randomBytes(18).toString('base64url');
      const expiresAtMs = now + ttlMs;
      tickets.set(ticket, { stream, expiresAtMs });
      return { ticket, expiresAtMs };
    },
    streamOf(ticket, now = Date.now()) {
      const entry = tickets.get(ticket);
      return entry && entry.expiresAtMs > now ? entry.stream : undefined;
    },
  };
}
