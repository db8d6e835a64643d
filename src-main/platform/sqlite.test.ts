import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openedOnUse, openSqlite, setUpOrClose } from './sqlite';

/** A store on one SQLite file that counts how often it was opened. */
function countedStore() {
  const opened: string[] = [];
  const open = (path: string) => {
    opened.push(path);
    return setUpOrClose(openSqlite(path), (db) => {
      db.exec('CREATE TABLE IF NOT EXISTS notes (text TEXT NOT NULL)');
      return {
        add: (text: string) => void db.prepare('INSERT INTO notes (text) VALUES (?)').run(text),
        count: () => (db.prepare('SELECT count(*) AS n FROM notes').get() as { n: number }).n,
        close: () => db.close(),
      };
    });
  };
  return { opened, open };
}

describe('a SQLite store opened on use', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sqlite-on-use-'));
    path = join(dir, 'notes.sqlite');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('makes no file until a call needs the store, then opens it once for every caller', async () => {
    const { opened, open } = countedStore();
    const store = openedOnUse('the notes', path, open);
    expect(existsSync(path)).toBe(false);
    // A read with no file answers without making one.
    expect(store.existing()).toBeUndefined();
    expect(existsSync(path)).toBe(false);
    // Callers racing to be first (each after its own await) share the one open.
    await Promise.all(
      Array.from({ length: 5 }, async (_, i) => {
        await Promise.resolve();
        store.get().add(`note ${i}`);
      }),
    );
    expect(opened).toEqual([path]);
    expect(existsSync(path)).toBe(true);
    expect(store.existing()!.count()).toBe(5);
    store.close();
  });

  it('opens a file an earlier run left at the first read, and reads what it holds', () => {
    const first = openedOnUse('the notes', path, countedStore().open);
    first.get().add('kept');
    first.close();
    const { opened, open } = countedStore();
    const again = openedOnUse('the notes', path, open);
    expect(opened).toEqual([]);
    expect(again.existing()?.count()).toBe(1);
    expect(opened).toEqual([path]);
    again.close();
  });

  it('names the store and its file when it cannot open, leaves the file as it was, and tries again on the next call', () => {
    writeFileSync(path, 'these bytes are not a database, and they are the user’s');
    const before = readFileSync(path);
    const { opened, open } = countedStore();
    const store = openedOnUse('the notes', path, open);
    expect(() => store.existing()).toThrow(`the notes (${path}) could not be opened: file is not a database`);
    expect(() => store.get()).toThrow(/could not be opened/);
    expect(opened).toHaveLength(2);
    expect(readFileSync(path)).toEqual(before);
    // Put right (here: the file moved away), the next call opens it.
    rmSync(path);
    store.get().add('after');
    expect(store.get().count()).toBe(1);
    expect(opened).toHaveLength(3);
    store.close();
  });

  it('closes the database it opened when setting it up fails', () => {
    writeFileSync(path, 'not a database');
    const db = openSqlite(path);
    expect(() => setUpOrClose(db, (d) => d.pragma('journal_mode = WAL'))).toThrow('file is not a database');
    expect(db.open).toBe(false);
  });

  it('refuses every call after close, and a store never opened stays unopened', () => {
    const { opened, open } = countedStore();
    const never = openedOnUse('the notes', path, open);
    never.close();
    expect(() => never.get()).toThrow('the notes is closed');
    expect(opened).toEqual([]);
    expect(existsSync(path)).toBe(false);

    const used = openedOnUse('the notes', path, open);
    used.get().add('one');
    used.close();
    used.close();
    expect(() => used.existing()).toThrow('the notes is closed');
    expect(opened).toEqual([path]);
  });
});
