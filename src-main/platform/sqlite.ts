import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const requireFromHere = createRequire(import.meta.url);

/**
 * Opens (or creates) a SQLite file. better-sqlite3 is required here, by the first database
 * opened, rather than imported at start: with its native addon (SQLite, which it loads with the
 * first database) it takes memory that an engine whose stores are never used (a relay alone,
 * the emulators off) should not hold. (Node caches it after the first call; its types are
 * imported as usual.)
 */
export function openSqlite(path: string, options?: BetterSqlite3.Options): BetterSqlite3.Database {
  const Database = requireFromHere('better-sqlite3') as typeof BetterSqlite3;
  return new Database(path, options);
}

/**
 * Runs `setUp` on a database just opened; when it throws (a file that is not a database, a
 * schema that cannot be made), the database is closed before the error goes on, so a caller that
 * tries again does not leave a handle open per attempt.
 */
export function setUpOrClose<T>(db: BetterSqlite3.Database, setUp: (db: BetterSqlite3.Database) => T): T {
  try {
    return setUp(db);
  } catch (error) {
    db.close();
    throw error;
  }
}

/** A store kept in one SQLite file, opened by the first call that needs it. */
export interface OpenedOnUse<T> {
  /** The store, opened now if nothing opened it yet. */
  get(): T;
  /**
   * The store when there is one to read: open already, or its file exists (opened now);
   * undefined when no file was ever made, so a read can answer as an empty store would
   * without creating one.
   */
  existing(): T | undefined;
  /** Closes the store if it was opened; any later call that needs it throws. */
  close(): void;
}

/**
 * A store opened on first use instead of at start. Opening is synchronous (better-sqlite3 is),
 * so calls that race to open it in the same turn share the one the first call opened. A failed
 * open is not kept: the error names the store and its file, and the next call tries again (the
 * file is left as it was, for the user to look at).
 */
export function openedOnUse<T extends { close(): void }>(what: string, path: string, open: (path: string) => T): OpenedOnUse<T> {
  let opened: T | undefined;
  let closed = false;
  const get = (): T => {
    if (opened) return opened;
    if (closed) throw new Error(`${what} is closed`);
    try {
      opened = open(path);
    } catch (error) {
      throw new Error(`${what} (${path}) could not be opened: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    return opened;
  };
  return {
    get,
    existing: () => (opened || closed || existsSync(path) ? get() : undefined),
    close() {
      closed = true;
      const store = opened;
      opened = undefined;
      store?.close();
    },
  };
}
