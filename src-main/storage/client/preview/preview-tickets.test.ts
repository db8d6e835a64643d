import { describe, expect, it } from 'vitest';
import { createPreviewTickets } from './preview-tickets';

const target = { accountId: 'local', bucket: 'media', key: 'a.jpg' };

describe('preview tickets', () => {
  it('names one object until it expires', () => {
    const tickets = createPreviewTickets(1000);
    const { ticket, expiresAt } = tickets.issue(target, 0);
    expect(expiresAt).toBe(1000);
    expect(ticket).toMatch(/^[\w-]{24}$/);
    expect(tickets.find(ticket, 999)).toEqual(target);
    expect(tickets.find(ticket, 1000)).toBeUndefined();
    expect(tickets.find('guessed', 0)).toBeUndefined();
  });

  it('keeps at most its limit, dropping the oldest', () => {
    const tickets = createPreviewTickets(60_000, 2);
    const first = tickets.issue({ ...target, key: '1' }, 0).ticket;
    const second = tickets.issue({ ...target, key: '2' }, 1).ticket;
    const third = tickets.issue({ ...target, key: '3' }, 2).ticket;
    expect(tickets.find(first, 3)).toBeUndefined();
    expect(tickets.find(second, 3)?.key).toBe('2');
    expect(tickets.find(third, 3)?.key).toBe('3');
  });
});
