import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { preferencesSchema, type Preferences } from '../../src-shared/contract/preferences';
import { writeFileAtomic } from '../platform/atomic-write';
import type { Logger } from '../platform/logger';

export const PREFERENCES_FILE = 'console-preferences.json';

export interface PreferencesStore {
  get(): Preferences;
  /** Applies `change` to the current preferences, validates and writes the file atomically. */
  update(change: (current: Preferences) => Preferences): Promise<Preferences>;
}

/**
 * The console's preferences in `data_dir/console-preferences.json`. A missing file is the
 * defaults; a damaged one (hand-edited, cut short) is set aside with a warning rather than
 * stopping the engine; writes are atomic and one at a time.
 */
export async function openPreferencesStore(dataDir: string, logger: Logger): Promise<PreferencesStore> {
  const path = join(dataDir, PREFERENCES_FILE);
  let current = preferencesSchema.parse({});
  try {
    const parsed = preferencesSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
    if (parsed.success) current = parsed.data;
    else logger.warn('console preferences are not valid; using the defaults', { path, problem: parsed.error.issues[0]?.message });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') logger.warn('console preferences cannot be read; using the defaults', { path, error: (error as Error).message });
  }
  let queue: Promise<unknown> = Promise.resolve();
  return {
    get: () => current,
    update(change) {
      const run = queue.then(async () => {
        const next = preferencesSchema.parse(change(current));
        await writeFileAtomic(path, `${JSON.stringify(next, null, 2)}\n`);
        current = next;
        return next;
      });
      queue = run.catch(() => undefined);
      return run;
    },
  };
}
