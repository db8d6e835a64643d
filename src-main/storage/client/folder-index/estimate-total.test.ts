import { describe, expect, it } from 'vitest';
import { estimateTotal } from './estimate-total';

const numbered = (n: number, width = 5) => `file-${String(n).padStart(width, '0')}`;

describe('estimateTotal', () => {
  it('is exact once the listing is complete', () => {
    expect(estimateTotal({ listed: 1234, firstKey: 'a', lastKey: 'z', more: false })).toBe(1234);
  });

  it.each([
    // numbered names: once the leading digit moves, the share of the range is known
    { listed: 2000, first: numbered(0), last: numbered(1999), total: 10_000 },
    { listed: 5000, first: numbered(0), last: numbered(4999), total: 10_000 },
    { listed: 20_000, first: numbered(0), last: numbered(19_999), total: 100_000 },
    // hex hashes spread over 0-9a-f read as printable characters: within a few times
    { listed: 1000, first: '0a1b', last: '3fff', total: 4000 },
  ])('guesses $total from $listed keys ending at $last', ({ listed, first, last, total }) => {
    const guess = estimateTotal({ listed, firstKey: first, lastKey: last, more: true });
    expect(guess).toBeGreaterThan(total / 3);
    expect(guess).toBeLessThan(total * 3);
  });

  it('never guesses less than what is listed plus one more page', () => {
    expect(estimateTotal({ listed: 1000, firstKey: numbered(0), lastKey: numbered(999), more: true })).toBe(2000);
    expect(estimateTotal({ listed: 1000, firstKey: 'same', lastKey: 'same', more: true })).toBe(2000);
    expect(estimateTotal({ listed: 5000, firstKey: 'a', lastKey: 'zzzz', more: true })).toBeGreaterThanOrEqual(6000);
  });
});
