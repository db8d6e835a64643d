import { describe, expect, it } from 'vitest';
import { createRepeatFilter } from './repeat-filter';

describe('repeat filter', () => {
  it('a key is new once, again after the window, and the oldest key is forgotten past the limit', () => {
    let clock = 0;
    const filter = createRepeatFilter({ windowMs: 1_000, maxKeys: 2, now: () => clock });
    expect([filter.isNew('a'), filter.isNew('a'), filter.isNew('b')]).toEqual([true, false, true]);
    clock = 999;
    expect(filter.isNew('a')).toBe(false);
    clock = 1_000;
    expect(filter.isNew('a')).toBe(true);
    // 'b' is now the oldest; a third key pushes it out, so it is new again.
    expect(filter.isNew('c')).toBe(true);
    expect(filter.isNew('b')).toBe(true);
    expect(filter.isNew('c')).toBe(false);
  });
});
