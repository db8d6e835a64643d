import { describe, expect, it } from 'vitest';
import { backOf, emptyHistory, forwardOf, visit } from './folder-history';

describe('folder history', () => {
  it('goes back and forward like a file manager, and a new visit drops what was ahead', () => {
    let h = ['a', 'b', 'c'].reduce(visit, emptyHistory);
    expect(backOf(h)).toBe('b');
    expect(forwardOf(h)).toBeUndefined();
    h = visit(h, 'b');
    expect([backOf(h), forwardOf(h)]).toEqual(['a', 'c']);
    h = visit(h, 'c');
    expect(h.entries).toEqual(['a', 'b', 'c']);
    h = visit(visit(h, 'b'), 'd');
    expect(h.entries).toEqual(['a', 'b', 'd']);
    expect(forwardOf(h)).toBeUndefined();
    expect(visit(h, 'd')).toBe(h);
  });

  it('keeps the last hundred places', () => {
    const h = Array.from({ length: 150 }, (_, i) => String(i)).reduce(visit, emptyHistory);
    expect(h.entries).toHaveLength(100);
    expect(h.entries[0]).toBe('50');
    expect(backOf(h)).toBe('148');
  });
});
