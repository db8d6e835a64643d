import { describe, expect, it } from 'vitest';
import { createRetryPolicy, parseRetryAfter } from './retry-policy';

describe('retry policy', () => {
  it('reads Retry-After as seconds, fractions or an HTTP date', () => {
    const now = Date.parse('2025-03-01T10:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0.25 ', now)).toBe(250);
    expect(parseRetryAfter('Sat, 01 Mar 2025 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sat, 01 Mar 2025 09:00:00 GMT', now)).toBe(0);
    for (const unreadable of [null, '', 'soon', '-1']) expect(parseRetryAfter(unreadable, now)).toBeNull();
  });

  it('waits as the server says, up to a limit, within the attempt budget', () => {
    const policy = createRetryPolicy({ maxAttempts: 3, maxRetryAfterMs: 10_000 });
    expect(policy.delayFor(1, '2')).toBe(2000);
    expect(policy.delayFor(2, '2')).toBe(2000);
    expect(policy.delayFor(3, '2')).toBeNull(); // the budget is spent
    expect(policy.delayFor(1, '60')).toBeNull(); // longer than anyone should wait inside a call
  });

  it('backs off exponentially with jitter when the server gives no time', () => {
    const low = createRetryPolicy({ baseDelayMs: 100, maxDelayMs: 1000, maxAttempts: 10 }, () => 0);
    const high = createRetryPolicy({ baseDelayMs: 100, maxDelayMs: 1000, maxAttempts: 10 }, () => 1);
    expect([1, 2, 3, 4, 5, 6].map((attempt) => low.delayFor(attempt, null))).toEqual([50, 100, 200, 400, 500, 500]);
    expect([1, 2, 3, 4, 5, 6].map((attempt) => high.delayFor(attempt, null))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });
});
