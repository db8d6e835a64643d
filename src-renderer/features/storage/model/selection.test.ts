import { describe, expect, it } from 'vitest';
import {
  describeTarget,
  EVERYTHING,
  everythingSentence,
  isSelected,
  NOTHING,
  targetOf,
  toggleAll,
  toggleKey,
  type Selection,
} from './selection';

const keys = (...k: string[]): Selection => ({ kind: 'keys', keys: new Set(k) });
const loaded = () => ['a.jpg', 'b.jpg', 'sub/'];

describe('selection in a folder', () => {
  it.each<[string, Selection, Selection]>([
    ['nothing → everything', NOTHING, EVERYTHING],
    ['some → nothing', keys('a.jpg'), NOTHING],
    ['everything → nothing', EVERYTHING, NOTHING],
  ])('the header checkbox: %s', (_case, from, to) => {
    expect(toggleAll(from)).toEqual(to);
  });

  it('ticks and unticks rows; unticking one of everything keeps the other loaded rows', () => {
    expect(toggleKey(NOTHING, 'a.jpg', loaded)).toEqual(keys('a.jpg'));
    expect(toggleKey(keys('a.jpg'), 'a.jpg', loaded)).toEqual(NOTHING);
    expect(toggleKey(EVERYTHING, 'b.jpg', loaded)).toEqual(keys('a.jpg', 'sub/'));
    expect(isSelected(EVERYTHING, 'never-loaded.jpg')).toBe(true);
    expect(isSelected(keys('a.jpg'), 'b.jpg')).toBe(false);
  });

  it.each<[Selection, string | undefined, ReturnType<typeof targetOf>]>([
    [EVERYTHING, 'a.jpg', { allIn: 'photos/' }],
    [
      keys('a.jpg', 'sub/'),
      undefined,
      {
        items: [
          { key: 'a.jpg', folder: false },
          { key: 'sub/', folder: true },
        ],
      },
    ],
    [NOTHING, 'b.jpg', { items: [{ key: 'b.jpg', folder: false }] }],
    [NOTHING, undefined, { items: [] }],
  ])('acts on %j (focus %s)', (selection, focused, target) => {
    expect(targetOf(selection, 'photos/', focused)).toEqual(target);
  });

  it.each([
    [{ state: 'counting' } as const, 'photos/', 'All objects in photos/ are selected · counting them…'],
    [{ state: 'counted', objects: 1234 } as const, 'photos/', 'All 1,234 objects in photos/ are selected, sub-folders included'],
    [{ state: 'counted', objects: 1 } as const, '', 'The only object in the bucket root is selected, sub-folders included'],
    [
      { state: 'failed', error: 'Kodo 631: no such bucket' } as const,
      'a/',
      'All objects in a/ are selected (they could not be counted: Kodo 631: no such bucket)',
    ],
  ])('says what is selected: %j', (count, prefix, sentence) => {
    expect(everythingSentence(prefix, count)).toBe(sentence);
  });

  it('names what a dialog acts on', () => {
    expect(describeTarget({ allIn: 'photos/' }, 'photos/', { state: 'counted', objects: 260 })).toBe('all 260 objects in photos/');
    expect(describeTarget({ allIn: 'photos/' }, 'photos/', { state: 'counting' })).toBe('all objects in photos/');
    expect(describeTarget({ items: [{ key: 'a', folder: false }] }, '', { state: 'counting' })).toBe('“a”');
    expect(describeTarget({ items: [{ key: 'archive/2026/trip/', folder: true }] }, 'archive/2026/', { state: 'counting' })).toBe('“trip”');
    expect(
      describeTarget(
        {
          items: [
            { key: 'a', folder: false },
            { key: 'b', folder: false },
          ],
        },
        '',
        { state: 'counting' },
      ),
    ).toBe('2 items');
  });
});
