import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';

const TEMP_ID_BYTES = 6;

/**
 * Writes a file so that readers see either the old or the new content, never a mix:
 * write a temp file beside it, fsync, rename over the target, fsync the folder.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${randomBytes(TEMP_ID_BYTES).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(dir);
}

async function syncDirectory(dir: string): Promise<void> {
  // Not every platform lets a folder be opened for fsync (Windows); the rename is still atomic there.
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    /* best effort */
  }
}

/**
 * Removes the temp files a write of `path` left behind when the process was killed between
 * writing and renaming (kill -9, power loss): they may hold secrets (a config's passwords).
 * Only names this module makes (`.<name>.<12 hex>.tmp`) are touched. Call it before the first write.
 */
export async function removeStaleTempFiles(path: string): Promise<string[]> {
  const dir = dirname(path);
  const escaped = basename(path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const ours = new RegExp(`^\\.${escaped}\\.[0-9a-f]{${TEMP_ID_BYTES * 2}}\\.tmp$`);
  const names = await readdir(dir).catch(() => [] as string[]);
  const stale = names.filter((name) => ours.test(name)).map((name) => join(dir, name));
  await Promise.all(stale.map((file) => rm(file, { force: true })));
  return stale;
}
