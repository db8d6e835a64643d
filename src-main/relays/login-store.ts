import { join } from 'node:path';
import { z } from 'zod';
import type { Logger } from '@main/platform/logger';
import { createCacheKeySource, type SafeStorageLike } from '@main/platform/secrets/key-source';
import { openSealedFile } from '@main/platform/secrets/sealed-file';
import { createSealedRecordStore } from '@main/platform/secrets/sealed-record-store';
import type { RelayLogin } from './relays-config';

const recordSchema = z.object({ id: z.string(), relay: z.string(), username: z.string().optional() });

/** What the console keeps of a relay it added: that it did (origin `console`), and its login if any. */
export interface ConsoleRelay {
  login?: RelayLogin;
}

/**
 * Relays added or edited in the console: their names and usernames in `relays/relays.json`,
 * the passwords sealed beside it (as the Kodo SecretKeys), so the config file's `relays:` holds
 * addresses without logins. Kept in memory once read: the monitor asks every few seconds.
 */
export interface RelayLoginStore {
  load(): Promise<Map<string, ConsoleRelay>>;
  /** Marks `relay` as the console's, with this login (undefined: none). */
  save(relay: string, login: RelayLogin | undefined): Promise<void>;
  remove(relay: string): Promise<void>;
}

export function createRelayLoginStore(options: { dir: string; safeStorage: SafeStorageLike | null; logger: Logger }): RelayLoginStore {
  const store = createSealedRecordStore({
    path: join(options.dir, 'relays.json'),
    listKey: 'relays',
    record: recordSchema,
    secrets: openSealedFile({
      path: join(options.dir, 'relay-logins.sealed'),
      label: 'relay logins',
      key: createCacheKeySource({
        path: join(options.dir, 'relay-logins.key'),
        safeStorage: options.safeStorage,
        onReset: (reason) => options.logger.warn(`${reason}; a new key was made and the relays' passwords must be typed again`),
      }),
    }),
  });
  const removeAll = async (relay: string) => {
    for (const record of await store.list()) if (record.relay === relay) await store.remove(record.id);
  };
  return {
    async load() {
      const relays = new Map<string, ConsoleRelay>();
      for (const record of await store.list()) {
        const password = record.username !== undefined ? await store.secretOf(record.id) : undefined;
        relays.set(record.relay, record.username !== undefined ? { login: { username: record.username, password: password ?? '' } } : {});
      }
      return relays;
    },
    async save(relay, login) {
      // The new record first: a crash between the two leaves the relay with a login, never without.
      const old = (await store.list()).filter((record) => record.relay === relay);
      await store.add({ relay, ...(login ? { username: login.username } : {}) }, login?.password);
      for (const record of old) await store.remove(record.id);
    },
    remove: removeAll,
  };
}
