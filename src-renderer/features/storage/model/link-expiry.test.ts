import { describe, expect, it } from 'vitest';
import { parseExpiry } from './link-expiry';

describe('parseExpiry', () => {
  it.each([
    ['90s', 90],
    ['15m', 900],
    ['15', 900],
    [' 2H ', 7200],
    ['7d', 604_800],
    ['1.5h', 5400],
    ['30d', 2_592_000],
  ])('%j is %i seconds', (text, seconds) => {
    expect(parseExpiry(text)).toEqual({ seconds });
  });

  it.each([
    ['', /such as/],
    ['soon', /such as/],
    ['0s', /at least a second/],
    ['31d', /at most 30 days/],
    ['-5m', /such as/],
  ])('%j is refused', (text, reason) => {
    expect(parseExpiry(text)).toEqual({ error: expect.stringMatching(reason) });
  });
});
