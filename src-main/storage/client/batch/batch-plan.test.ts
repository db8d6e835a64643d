import { describe, expect, it } from 'vitest';
import type { BatchRequest } from '@shared/contract/storage';
import { containerOf, destinationOf, itemsOf, planProblem, titleOf } from './batch-plan';

const base = { accountId: 'local', bucket: 'photos' };

describe('batch plan', () => {
  it('finds the folder an item sits in', () => {
    expect(containerOf('a/b/')).toBe('a/');
    expect(containerOf('a/f.txt')).toBe('a/');
    expect(containerOf('top/')).toBe('');
    expect(containerOf('top.txt')).toBe('');
  });

  it.each<[BatchRequest, { key: string; folder: boolean; contents?: boolean }, string, { toBucket?: string; toKey?: string }]>([
    [
      { ...base, kind: 'move', items: [], toBucket: 'photos', toPrefix: 'archive/' },
      { key: 'a/b/', folder: true },
      'a/b/c/d.jpg',
      { toBucket: 'photos', toKey: 'archive/b/c/d.jpg' },
    ],
    [
      { ...base, kind: 'copy', items: [], toBucket: 'vault', toPrefix: '' },
      { key: 'a/f.txt', folder: false },
      'a/f.txt',
      { toBucket: 'vault', toKey: 'f.txt' },
    ],
    [
      { ...base, kind: 'rename', item: { key: 'a/b/', folder: true }, newName: 'c' },
      { key: 'a/b/', folder: true },
      'a/b/x/y',
      { toBucket: 'photos', toKey: 'a/c/x/y' },
    ],
    [
      { ...base, kind: 'rename', item: { key: 'f.txt', folder: false }, newName: 'g.txt' },
      { key: 'f.txt', folder: false },
      'f.txt',
      { toBucket: 'photos', toKey: 'g.txt' },
    ],
    [{ ...base, kind: 'delete', items: [] }, { key: 'a/', folder: true }, 'a/x', {}],
    // "Select all" of a folder: keys keep their path below it, not the folder's own name.
    [
      { ...base, kind: 'move', allIn: 'raw/', toBucket: 'photos', toPrefix: 'sorted/' },
      { key: 'raw/', folder: true, contents: true },
      'raw/d1/x.jpg',
      { toBucket: 'photos', toKey: 'sorted/d1/x.jpg' },
    ],
    [
      { ...base, kind: 'copy', allIn: '', toBucket: 'vault', toPrefix: 'backup/' },
      { key: '', folder: true, contents: true },
      'top.txt',
      { toBucket: 'vault', toKey: 'backup/top.txt' },
    ],
  ])('%#: %s places %s', (request, item, key, expected) => {
    expect(destinationOf(request, item, key)).toEqual({ key, ...expected });
  });

  it('refuses moves into the same place or into the folder itself, and mislabelled items', () => {
    expect(planProblem({ ...base, kind: 'move', items: [{ key: 'a/b/', folder: true }], toBucket: 'photos', toPrefix: 'a/b/c/' })).toMatch(
      /inside itself/,
    );
    expect(planProblem({ ...base, kind: 'move', items: [{ key: 'a/f', folder: false }], toBucket: 'photos', toPrefix: 'a/' })).toMatch(
      /already in a\//,
    );
    expect(
      planProblem({ ...base, kind: 'move', items: [{ key: 'a/f', folder: false }], toBucket: 'vault', toPrefix: 'a/' }),
    ).toBeUndefined();
    expect(planProblem({ ...base, kind: 'delete', items: [{ key: 'a/', folder: false }] })).toMatch(/ends with \//);
    expect(planProblem({ ...base, kind: 'rename', item: { key: 'a/f', folder: false }, newName: 'f' })).toMatch(/same/);
  });

  it('walks everything in a folder when all was selected, and refuses loops', () => {
    expect(itemsOf({ ...base, kind: 'delete', allIn: 'raw/' })).toEqual([{ key: 'raw/', folder: true, contents: true }]);
    expect(itemsOf({ ...base, kind: 'delete', items: [{ key: 'a', folder: false }] })).toEqual([{ key: 'a', folder: false }]);
    expect(planProblem({ ...base, kind: 'delete', allIn: '' })).toBeUndefined();
    expect(planProblem({ ...base, kind: 'move', allIn: 'raw/', toBucket: 'photos', toPrefix: 'raw/' })).toMatch(/already in raw\//);
    expect(planProblem({ ...base, kind: 'move', allIn: 'raw/', toBucket: 'photos', toPrefix: 'raw/x/' })).toMatch(/inside itself/);
    expect(planProblem({ ...base, kind: 'copy', allIn: 'raw/', toBucket: 'vault', toPrefix: 'raw/' })).toBeUndefined();
  });

  it('names a batch as the transfer list shows it', () => {
    expect(titleOf({ ...base, kind: 'delete', allIn: 'raw/' })).toBe('Delete everything in raw/ from photos');
    expect(titleOf({ ...base, kind: 'copy', allIn: '', toBucket: 'vault', toPrefix: 'b/' })).toBe(
      'Copy everything in the bucket root to vault/b/',
    );
    expect(titleOf({ ...base, kind: 'delete', items: [{ key: 'a/', folder: true }] })).toBe('Delete 1 item from photos');
    expect(
      titleOf({
        ...base,
        kind: 'move',
        items: [
          { key: 'a', folder: false },
          { key: 'b', folder: false },
        ],
        toBucket: 'photos',
        toPrefix: 'x/',
      }),
    ).toBe('Move 2 items to photos/x/');
  });
});
