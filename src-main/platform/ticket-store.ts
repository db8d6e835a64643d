import { randomBytes } from 'node:crypto';

export interface TicketStore<T> {
  issue(value: T, now?: number): { ticket: string; expiresAtMs: number };
  /** The value of a live ticket, or undefined when it is unknown or expired. */
  find(ticket: string, now?: number): T | undefined;
}

/**
 * Random, unguessable tickets that stand for a value for a while: the console's way to let an
 * `<img>`, a `<video>` or hls.js (which cannot send the session token) read one thing on an
 * address of its own. Expired tickets are dropped as new ones are issued, and at most `limit`
 * are kept, the oldest going first.
 */
export function createTicketStore<T>(ttlMs: number, limit: number): TicketStore<T> {
  const tickets = new Map<string, { value: T; expiresAtMs: number }>();
  return {
    issue(value, now = Date.now()) {
      for (const [id, entry] of tickets) if (entry.expiresAtMs <= now) tickets.delete(id);
      // A Map iterates in insertion order: the first key is the oldest ticket.
      while (tickets.size >= limit) tickets.delete(tickets.keys().next().value!);
      const ticket = randomBytes(18).toString('base64url');
      const expiresAtMs = now + ttlMs;
      tickets.set(ticket, { value, expiresAtMs });
      return { ticket, expiresAtMs };
    },
    find(ticket, now = Date.now()) {
      const entry = tickets.get(ticket);
      return entry && entry.expiresAtMs > now ? entry.value : undefined;
    },
  };
}
