import { describe, expect, it } from 'vitest';
import { CalendarSyncInputError, DEFAULT_CALENDAR_SYNC, resolveTarget } from './sync-target';

const now = new Date('2025-03-10T15:30:00Z');
const none = () => null;

describe('resolveTarget', () => {
  it('normalizes a given window to UTC instants', () => {
    expect(
      resolveTarget(
        { user: 'adele@contoso.test', start: '2025-03-01T00:00:00+01:00', end: '2025-04-01T00:00:00Z' },
        DEFAULT_CALENDAR_SYNC,
        now,
        none,
      ),
    ).toEqual({
      user: 'adele@contoso.test',
      windowStart: '2025-02-28T23:00:00.000Z',
      windowEnd: '2025-04-01T00:00:00.000Z',
    });
  });

  it('reuses the stored window of the user, else takes whole UTC days around today', () => {
    const stored = { windowStart: '2025-01-01T00:00:00.000Z', windowEnd: '2025-02-01T00:00:00.000Z' };
    expect(resolveTarget({}, DEFAULT_CALENDAR_SYNC, now, (user) => (user === 'me' ? stored : null))).toEqual({ user: 'me', ...stored });
    expect(resolveTarget({}, { ...DEFAULT_CALENDAR_SYNC, daysBefore: 1, daysAfter: 2 }, now, none)).toEqual({
      user: 'me',
      windowStart: '2025-03-09T00:00:00.000Z',
      windowEnd: '2025-03-13T00:00:00.000Z',
    });
  });

  it('says what is wrong with a window', () => {
    expect(() => resolveTarget({ start: '2025-03-01T00:00:00Z' }, DEFAULT_CALENDAR_SYNC, now, none)).toThrow('give both start and end');
    expect(() => resolveTarget({ start: '2025-03-02T00:00:00Z', end: '2025-03-01T00:00:00Z' }, DEFAULT_CALENDAR_SYNC, now, none)).toThrow(
      /end after it starts/,
    );
    expect(() => resolveTarget({ user: ' ' }, DEFAULT_CALENDAR_SYNC, now, none)).toThrow(CalendarSyncInputError);
  });
});
