import { describe, expect, it } from 'vitest';
import { dateOf, dayNumber, parseRecurrence, seriesDays } from './recurrence';

const days = (input: unknown, until: string) => seriesDays(parseRecurrence(input, 'UTC', '2025-01-01')!, dayNumber(until)).map(dateOf);

describe('seriesDays', () => {
  it('daily every 2 days up to an end date', () => {
    expect(
      days(
        { pattern: { type: 'daily', interval: 2 }, range: { type: 'endDate', startDate: '2025-01-30', endDate: '2025-02-05' } },
        '2026-01-01',
      ),
    ).toEqual(['2025-01-30', '2025-02-01', '2025-02-03', '2025-02-05']);
  });

  it('weekly on two days every other week, numbered', () => {
    const out = days(
      {
        pattern: { type: 'weekly', interval: 2, daysOfWeek: ['tuesday', 'thursday'], firstDayOfWeek: 'monday' },
        range: { type: 'numbered', startDate: '2025-01-02', numberOfOccurrences: 5 },
      },
      '2026-01-01',
    );
    // 2025-01-02 is a Thursday; the week of Dec 30 is week 0, so Tuesday Dec 31 is before the start.
    expect(out).toEqual(['2025-01-02', '2025-01-14', '2025-01-16', '2025-01-28', '2025-01-30']);
  });

  it('absoluteMonthly on the 31st falls on the last day of shorter months; noEnd stops at the horizon', () => {
    expect(
      days(
        { pattern: { type: 'absoluteMonthly', interval: 1, dayOfMonth: 31 }, range: { type: 'noEnd', startDate: '2025-01-31' } },
        '2025-05-15',
      ),
    ).toEqual(['2025-01-31', '2025-02-28', '2025-03-31', '2025-04-30']);
  });

  it('relativeMonthly last friday and absoluteYearly', () => {
    expect(
      days(
        {
          pattern: { type: 'relativeMonthly', interval: 1, daysOfWeek: ['friday'], index: 'last' },
          range: { type: 'numbered', startDate: '2025-01-01', numberOfOccurrences: 3 },
        },
        '2026-01-01',
      ),
    ).toEqual(['2025-01-31', '2025-02-28', '2025-03-28']);
    expect(
      days(
        {
          pattern: { type: 'absoluteYearly', interval: 1, month: 2, dayOfMonth: 29 },
          range: { type: 'numbered', startDate: '2024-02-29', numberOfOccurrences: 2 },
        },
        '2030-01-01',
      ),
    ).toEqual(['2024-02-29', '2025-02-28']);
  });

  it('refuses incomplete patterns with the reason', () => {
    expect(() =>
      parseRecurrence({ pattern: { type: 'weekly', interval: 1 }, range: { type: 'noEnd', startDate: '2025-01-01' } }, 'UTC', '2025-01-01'),
    ).toThrow(/daysOfWeek is required/);
    expect(() => parseRecurrence({ pattern: { type: 'hourly' }, range: { type: 'noEnd' } }, 'UTC', '2025-01-01')).toThrow(/pattern.type/);
    expect(() =>
      parseRecurrence(
        { pattern: { type: 'daily' }, range: { type: 'endDate', startDate: '2025-01-05', endDate: '2025-01-01' } },
        'UTC',
        '2025-01-01',
      ),
    ).toThrow(/before/);
  });
});
