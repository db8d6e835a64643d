import { describe, expect, it } from 'vitest';
import { DURATION_LIMITS, durationProblem, durationWords } from './duration-limits';

describe('duration limits', () => {
  it.each([
    ['P1D', null],
    ['PT1H', null],
    ['P3650D', null],
    ['P521W', null],
    ['P3651D', { code: 'tooLong', message: 'Access can last at most 3,650 days' }],
    ['P99999D', { code: 'tooLong', message: 'Access can last at most 3,650 days' }],
    ['PT87601H', { code: 'tooLong', message: 'Access can last at most 3,650 days' }],
    ['P0D', { code: 'required', message: 'Enter how many days access lasts (1 or more)' }],
    ['', { code: 'required', message: 'Enter how many days access lasts (1 or more)' }],
    [null, { code: 'required', message: 'Enter how many days access lasts (1 or more)' }],
    // Not a duration at all: the shape check names the format, not this rule.
    ['365 days', null],
  ] as const)('access lasting %s → %o', (iso, expected) => {
    expect(durationProblem(DURATION_LIMITS.access, iso)).toEqual(expected);
  });

  it('has no upper bound where none is set', () => {
    expect(durationProblem(DURATION_LIMITS.review, 'P9999D')).toBeNull();
    expect(durationProblem(DURATION_LIMITS.review, 'P0D')).toEqual({
      code: 'required',
      message: 'Enter how many days each review lasts (1 or more)',
    });
    expect(durationProblem(DURATION_LIMITS.decision, 'P15D')).toEqual({
      code: 'tooLong',
      message: 'Approvers can have at most 14 days to decide',
    });
  });

  it.each([
    ['P14D', '14 days'],
    ['P1D', '1 day'],
    ['PT12H', '12 hours'],
    ['PT48H', '2 days'],
    ['P2W', '2 weeks'],
    ['P1W', '1 week'],
    ['P3650D', '3,650 days'],
    ['nonsense', 'nonsense'],
  ])('%s in words is %s', (iso, words) => {
    expect(durationWords(iso)).toBe(words);
  });
});
