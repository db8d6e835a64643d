import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The storage emulator's native helper, compiled from this folder's C (page-cache.c). */
export interface StorageNative {
  /** Lets the kernel drop the clean cached pages of a file range (length 0: to its end). 0, or a negative errno. */
  dropCachedRange(fd: number, offset: number, length: number): number;
}

/** Where the build puts the addon: dist/native in the project (or the packaged app). */
const ADDON = join('dist', 'native', 'storage-native.node');
/** Folders from this module up to the project's root: src-main/storage/emulator/native from source, dist/main bundled. */
const MAX_LEVELS = 5;

/**
 * The addon, or undefined where it was not built (not Linux, no C compiler at install) or
 * `STORAGE_NATIVE=0` turns it off: uploaded parts then stay in the page cache until the kernel
 * needs the memory, as any written file does.
 */
export function loadStorageNative(env: NodeJS.ProcessEnv = process.env): StorageNative | undefined {
  if (env.STORAGE_NATIVE === '0' || process.platform !== 'linux') return undefined;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let level = 0; level <= MAX_LEVELS; level++, dir = dirname(dir)) {
    const path = join(dir, ADDON);
    if (!existsSync(path)) continue;
    try {
      return createRequire(import.meta.url)(path) as StorageNative;
    } catch {
      // Built for another system (a copied tree): parts stay cached, as where it was never built.
      return undefined;
    }
  }
  return undefined;
}
