import { describe, expect, it } from 'vitest';
import { durationParts, isoDuration } from './iso-duration-parts';

describe('duration parts', () => {
  it.each([
    ['P14D', { amount: 14, unit: 'days' }],
    ['PT12H', { amount: 12, unit: 'hours' }],
    ['PT48H', { amount: 2, unit: 'days' }],
    ['P2W', { amount: 2, unit: 'weeks' }],
    ['P1DT12H', { amount: 36, unit: 'hours' }],
    ['P1W2D', { amount: 9, unit: 'days' }],
    // A typed 0 stays 0 in its unit, so the field shows it with the rule's message.
    ['P0D', { amount: 0, unit: 'days' }],
    ['PT0H', { amount: 0, unit: 'hours' }],
    ['P0W', { amount: 0, unit: 'weeks' }],
  ] as const)('%s reads as %o', (iso, parts) => {
    expect(durationParts(iso)).toEqual(parts);
  });

  it.each([null, '', 'PT0S', 'PT30M', 'P1M', 'nonsense'])('%s has no parts to show', (iso) => {
    expect(durationParts(iso)).toBeNull();
  });

  it('writes the ISO text Graph takes', () => {
    expect(isoDuration({ amount: 14, unit: 'days' })).toBe('P14D');
    expect(isoDuration({ amount: 6, unit: 'hours' })).toBe('PT6H');
    expect(isoDuration({ amount: 3, unit: 'weeks' })).toBe('P3W');
  });
});
