import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openTransferStore, type TransferRow, type TransferStore } from './transfer-store';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function open(): Promise<{ store: TransferStore; path: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'transfer-store-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'queue.sqlite');
  const store = openTransferStore(path);
  cleanup.push(() => store.close());
  return { store, path };
}

const row = (id: string): TransferRow => ({
  id,
  kind: 'upload',
  accountId: 'local',
  bucket: 'pub',
  key: `${id}.txt`,
  name: `${id}.txt`,
  size: 4096,
  received: 4096,
  transferred: 0,
  state: 'queued',
  createdAt: 1,
  source: 'path',
  localPath: `/files/${id}.txt`,
  overwrite: false,
});

/** What another connection (a process started after a kill) reads from the file. */
function onDisk(path: string): Record<string, string> {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.prepare('SELECT id, state FROM transfers').all() as Array<{ id: string; state: string }>;
    return Object.fromEntries(rows.map((r) => [r.id, r.state]));
  } finally {
    db.close();
  }
}

describe('transfer store', () => {
  it('answers a change at once and writes the changes of one turn together at its end', async () => {
    const { store, path } = await open();
    store.insert([row('a'), row('b'), row('c')]);
    expect(store.update('a', { state: 'running' })).toMatchObject({ id: 'a', state: 'running' });
    store.update('b', { state: 'running' });
    store.update('a', { state: 'done', etag: 'Fetag', transferred: 4096 });
    // Seen by the queue at once, not yet in the file.
    expect(store.get('a')).toMatchObject({ state: 'done', etag: 'Fetag', transferred: 4096 });
    expect(onDisk(path)).toEqual({ a: 'queued', b: 'queued', c: 'queued' });
    await store.written();
    expect(onDisk(path)).toEqual({ a: 'done', b: 'running', c: 'queued' });
    expect(store.get('a')).toMatchObject({ state: 'done', etag: 'Fetag' });
  });

  it('gives the next queued rows as this turn left them without writing them; writes before listing all, and when closed', async () => {
    const { store, path } = await open();
    store.insert([row('a'), row('b')]);
    store.update('a', { state: 'running' });
    // The scheduler asks for the next queued ones in the same turn: the started one is not among
    // them, and asking writes nothing (it asks after every transfer that ends).
    expect(store.queued(10).map((r) => r.id)).toEqual(['b']);
    expect(onDisk(path)).toEqual({ a: 'queued', b: 'queued' });
    store.update('b', { state: 'failed', error: 'broken' });
    expect(store.queued(10)).toEqual([]);
    expect(store.list().find((r) => r.id === 'b')).toMatchObject({ state: 'failed', error: 'broken' });
    expect(onDisk(path)).toEqual({ a: 'running', b: 'failed' });
    // Queued again this turn (a retry): found, its change written first.
    store.update('b', { state: 'queued', error: null });
    expect(store.get('b')).not.toHaveProperty('error');
    expect(store.queued(10).map((r) => r.id)).toEqual(['b']);
    expect(onDisk(path)).toEqual({ a: 'running', b: 'queued' });
    store.update('a', { state: 'done' });
    store.close();
    cleanup.pop();
    expect(onDisk(path)).toEqual({ a: 'done', b: 'queued' });
  });

  it('fills the limit past rows started this turn, oldest first, with their other changes', async () => {
    const { store } = await open();
    store.insert(['a', 'b', 'c', 'd', 'e'].map((id) => row(id)));
    store.update('a', { state: 'running' });
    store.update('b', { state: 'canceled' });
    store.update('c', { transferred: 7 });
    expect(store.queued(2).map((r) => [r.id, r.transferred])).toEqual([
      ['c', 7],
      ['d', 0],
    ]);
  });

  it('answers nothing for a row it does not hold, and settles at once with nothing to write', async () => {
    const { store } = await open();
    expect(store.update('none', { state: 'done' })).toBeUndefined();
    await expect(store.written()).resolves.toBeUndefined();
  });
});
