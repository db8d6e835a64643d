import { describe, expect, it } from 'vitest';
import { wholeNumber } from './whole-number';

describe('wholeNumber', () => {
  it('groups thousands as en-US does', () => {
    for (const n of [0, 1, 12, 999, 1000, 3650, 12345, 999999, 1000000, 1234567890, -1, -1000, -987654321, Number.MAX_SAFE_INTEGER]) {
      expect(wholeNumber(n), String(n)).toBe(n.toLocaleString('en-US'));
    }
  });

  it('leaves what is not a whole number as JavaScript writes it', () => {
    expect(wholeNumber(1.5)).toBe('1.5');
    expect(wholeNumber(Number.NaN)).toBe('NaN');
  });
});
