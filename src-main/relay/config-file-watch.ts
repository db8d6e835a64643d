import { createHash } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { Logger } from '../platform/logger';

/** A revision of the file's bytes: equal texts have equal revisions, whoever wrote them. */
export const revisionOf = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** The config file as it is on disk now (not the copy the engine started with). */
export async function readConfigFile(path: string): Promise<{ text: string; revision: string }> {
  const text = await readFile(path, 'utf8');
  return { text, revision: revisionOf(text) };
}

const SETTLE_MS = 150;

/**
 * Calls `onRevision` when the file's bytes change on disk, whoever changed them. The folder is
 * watched, not the file: editors and our own atomic writes replace the file by a rename, which
 * ends a watch on the old inode.
 */
export function watchConfigFile(path: string, onRevision: (revision: string) => void, logger: Logger): () => void {
  let last: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  void readConfigFile(path).then(
    (file) => (last ??= file.revision),
    () => undefined,
  );
  const check = () => {
    readConfigFile(path).then(
      (file) => {
        if (closed || file.revision === last) return;
        last = file.revision;
        onRevision(file.revision);
      },
      () => undefined, // mid-rename or deleted: the next event tells
    );
  };
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(path), (_event, name) => {
      if (name !== null && name !== basename(path)) return;
      clearTimeout(timer);
      timer = setTimeout(check, SETTLE_MS);
    });
    watcher.on('error', (error) => logger.warn('config watch stopped', { error: error.message }));
  } catch (error) {
    logger.warn('cannot watch the config file; changes on disk show on the next open', { error: (error as Error).message });
  }
  return () => {
    closed = true;
    clearTimeout(timer);
    watcher?.close();
  };
}
