import { loadBuiltAddon } from '../../../platform/built-addon';

/** The storage emulator's native helper, compiled from this folder's C (page-cache.c). */
export interface StorageNative {
  /** Lets the kernel drop the clean cached pages of a file range (length 0: to its end). 0, or a negative errno. */
  dropCachedRange(fd: number, offset: number, length: number): number;
}

/**
 * The addon, or undefined where it was not built (not Linux, no C compiler at install) or
 * `STORAGE_NATIVE=0` turns it off: uploaded parts then stay in the page cache until the kernel
 * needs the memory, as any written file does.
 */
export function loadStorageNative(env: NodeJS.ProcessEnv = process.env): StorageNative | undefined {
  if (env.STORAGE_NATIVE === '0' || process.platform !== 'linux') return undefined;
  return loadBuiltAddon<StorageNative>('storage-native.node', import.meta.url);
}
