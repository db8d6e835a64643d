import { describe, expect, it } from 'vitest';
import type { ListPage } from '@shared/contract/storage';
import { needsIndex, rowFromEntry, rowsFromListing } from './browser-rows';

const file = (key: string) => ({ key, size: 1, hash: 'h', mimeType: 'text/plain', putTime: 5, storageClass: 'standard' as const });

describe('browser rows', () => {
  it('puts folders first, once each, and leaves out the folder marker', () => {
    const pages: ListPage[] = [
      { folders: ['a/x/'], objects: [file('a/'), file('a/b.txt')], marker: 'm' },
      { folders: ['a/y/', 'a/x/'], objects: [file('a/c.txt')] },
    ];
    expect(rowsFromListing(pages, 'a/').map((r) => `${r.kind}:${r.name}`)).toEqual(['folder:x', 'folder:y', 'file:b.txt', 'file:c.txt']);
  });

  it('carries index totals into folder rows', () => {
    expect(rowFromEntry({ kind: 'folder', key: 'a/b/', files: 3, bytes: 30, putTime: 9 })).toEqual({
      kind: 'folder',
      key: 'a/b/',
      name: 'b',
      files: 3,
      bytes: 30,
      putTime: 9,
    });
    expect(rowFromEntry({ kind: 'file', ...file('a/z.txt') })).toMatchObject({ kind: 'file', name: 'z.txt', size: 1 });
  });

  it('needs the index for anything but name order ascending', () => {
    expect(needsIndex('name', false)).toBe(false);
    expect(needsIndex('name', true)).toBe(true);
    expect(needsIndex('size', false)).toBe(true);
  });
});
