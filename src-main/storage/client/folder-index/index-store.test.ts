import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ObjectSummary } from '@shared/contract/storage';
import { openIndexStore, parentOf, prefixEnd, type IndexStore } from './index-store';

const scope = { accountId: 'local', bucket: 'photos' };
const object = (key: string, size: number, putTime = 1000, mimeType = 'image/jpeg'): ObjectSummary => ({
  key,
  size,
  hash: `h-${key}`,
  mimeType,
  putTime,
  storageClass: 'standard',
});

describe('index store', () => {
  let dir: string;
  let store: IndexStore;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folder-index-'));
    store = openIndexStore(join(dir, 'index.sqlite'));
  });
  afterEach(async () => {
    store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('knows the parent folder of a key and the end of a prefix range', () => {
    expect(parentOf('a/b/c.txt')).toBe('a/b/');
    expect(parentOf('top.txt')).toBe('');
    expect(parentOf('a/b/')).toBe('a/b/');
    expect(prefixEnd('a/')).toBe('a0');
    expect(prefixEnd('')).toBeUndefined();
  });

  it('sorts one folder level over the whole folder, folders first with their totals', () => {
    let scan = store.beginScan(scope, '');
    scan = store.addPage(
      scope,
      scan,
      [
        object('2024/a.jpg', 500),
        object('2024/deep/b.jpg', 700),
        object('big.mp4', 9000, 3000, 'video/mp4'),
        object('small.txt', 3, 2000, 'text/plain'),
      ],
      {
        marker: 'm1',
        estimate: 8,
        firstKey: '2024/a.jpg',
      },
    );
    expect(store.status(scope, '')).toMatchObject({ state: 'running', listed: 4, estimate: 8, bytes: 10_203 });
    scan = store.addPage(scope, scan, [object('2025/', 0), object('empty.bin', 0, 500, 'application/octet-stream')], {
      marker: null,
      estimate: 6,
      firstKey: '2024/a.jpg',
    });
    store.completeScan(scope, scan, 42);

    const bySize = store.level(scope, '', 'size', true, 0, 10);
    expect(bySize.total).toBe(5);
    expect(bySize.entries.map((e) => e.key)).toEqual(['2024/', '2025/', 'big.mp4', 'small.txt', 'empty.bin']);
    expect(bySize.entries[0]).toEqual({ kind: 'folder', key: '2024/', files: 2, bytes: 1200, putTime: 1000 });
    // A folder marker makes the folder, not a file in it.
    expect(bySize.entries[1]).toMatchObject({ kind: 'folder', key: '2025/', files: 0, bytes: 0 });
    expect(store.level(scope, '', 'time', false, 2, 10).entries.map((e) => e.key)).toEqual(['empty.bin', 'small.txt', 'big.mp4']);
    expect(store.level(scope, '', 'type', false, 0, 10).entries.map((e) => e.key)).toEqual([
      '2024/',
      '2025/',
      'empty.bin',
      'small.txt',
      'big.mp4',
    ]);
    expect(store.level(scope, '2024/', 'name', false, 0, 10).entries.map((e) => e.key)).toEqual(['2024/deep/', '2024/a.jpg']);
    expect(store.level(scope, '2025/', 'name', false, 0, 10)).toEqual({ entries: [], total: 0, offset: 0 });
    // Prefix search inside the level: names that start with what was typed, folders included.
    expect(store.level(scope, '', 'size', true, 0, 10, '2').entries.map((e) => e.key)).toEqual(['2024/', '2025/']);
    expect(store.level(scope, '', 'size', true, 0, 10, 's')).toMatchObject({ total: 1, entries: [{ key: 'small.txt' }] });
    expect(store.level(scope, '2024/', 'name', false, 0, 10, 'd').entries.map((e) => e.key)).toEqual(['2024/deep/']);
  });

  it('counts a folder from a complete listing of it or of a folder above it', () => {
    let scan = store.beginScan(scope, '');
    scan = store.addPage(scope, scan, [object('a/1', 10), object('a/b/2', 20), object('ab', 5), object('c', 1)], {
      marker: null,
      estimate: 4,
      firstKey: 'a/1',
    });
    expect(store.status(scope, 'a/').state).toBe('none');
    store.completeScan(scope, scan, 99);
    expect(store.status(scope, 'a/')).toEqual({
      accountId: 'local',
      bucket: 'photos',
      prefix: 'a/',
      state: 'complete',
      listed: 2,
      estimate: 2,
      bytes: 30,
      completedAt: 99,
    });
    expect(store.status(scope, '')).toMatchObject({ state: 'complete', listed: 4, bytes: 36 });
  });

  it('drops keys a new listing no longer sees, only inside the listed folder', () => {
    let first = store.beginScan(scope, '');
    first = store.addPage(scope, first, [object('a/gone', 1), object('a/kept', 2), object('b/other', 4)], {
      marker: null,
      estimate: 3,
      firstKey: 'a/gone',
    });
    store.completeScan(scope, first, 1);
    let again = store.beginScan(scope, 'a/');
    again = store.addPage(scope, again, [object('a/kept', 2), object('a/new', 8)], { marker: null, estimate: 2, firstKey: 'a/kept' });
    store.completeScan(scope, again, 2);
    expect(store.level(scope, 'a/', 'name', false, 0, 10).entries.map((e) => e.key)).toEqual(['a/kept', 'a/new']);
    expect(store.level(scope, 'b/', 'name', false, 0, 10).entries.map((e) => e.key)).toEqual(['b/other']);
  });

  it('follows the console own changes and keeps an interrupted listing where it stopped', () => {
    let scan = store.beginScan(scope, '');
    scan = store.addPage(scope, scan, [object('x', 1), object('y', 2)], { marker: 'after-y', estimate: 10, firstKey: 'x' });
    store.removeKeys(scope, ['x']);
    store.putObjects(scope, [object('z', 5)]);
    expect(store.level(scope, '', 'name', false, 0, 10).entries.map((e) => e.key)).toEqual(['y', 'z']);

    const dbPath = join(dir, 'index.sqlite');
    store.close();
    store = openIndexStore(dbPath);
    expect(store.scan(scope, '')).toMatchObject({ state: 'running', marker: 'after-y', listed: 2, generation: scan.generation });
  });

  it('keeps buckets and accounts apart', () => {
    const other = { accountId: 'local', bucket: 'vault' };
    const scan = store.beginScan(other, '');
    store.completeScan(other, store.addPage(other, scan, [object('secret', 1)], { marker: null, estimate: 1, firstKey: 'secret' }), 1);
    expect(store.level(scope, '', 'name', false, 0, 10).total).toBe(0);
    expect(store.level(other, '', 'name', false, 0, 10).total).toBe(1);
  });
});
