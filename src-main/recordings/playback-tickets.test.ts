import { describe, expect, it } from 'vitest';
import { createPlaybackTickets } from './playback-tickets';

describe('playback tickets', () => {
  it('names the stream it was issued for until it expires', () => {
    const tickets = createPlaybackTickets(1000);
    const { ticket, expiresAtMs } = tickets.issue('cam', 5000);
    expect(expiresAtMs).toBe(6000);
    expect(ticket).toMatch(/^[\w-]{24}$/);
    expect(tickets.streamOf(ticket, 5999)).toBe('cam');
    expect(tickets.streamOf(ticket, 6000)).toBeUndefined();
    expect(tickets.streamOf('guessed', 5000)).toBeUndefined();
  });

  it('keeps at most the limit, dropping the oldest', () => {
    const tickets = createPlaybackTickets(60_000, 2);
    const first = tickets.issue('a', 0).ticket;
    const second = tickets.issue('b', 1).ticket;
    const third = tickets.issue('c', 2).ticket;
    expect([first, second, third].map((t) => tickets.streamOf(t, 3))).toEqual([undefined, 'b', 'c']);
  });
});
