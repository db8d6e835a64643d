import { closeSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadStorageNative } from './storage-native';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('the storage emulator native helper', () => {
  it('is built on Linux (npm install compiles it) and can be turned off with STORAGE_NATIVE=0', () => {
    if (process.platform === 'linux') expect(loadStorageNative()).toBeDefined();
    expect(loadStorageNative({ STORAGE_NATIVE: '0' })).toBeUndefined();
  });

  it.runIf(process.platform === 'linux')(
    'drops a range of a file from the page cache, its bytes kept; a bad descriptor is a negative errno',
    () => {
      const native = loadStorageNative()!;
      const dir = mkdtempSync(join(tmpdir(), 'storage-native-'));
      dirs.push(dir);
      const path = join(dir, 'part');
      const bytes = randomBytes(1024 * 1024);
      writeFileSync(path, bytes);
      const fd = openSync(path, 'r');
      try {
        expect(native.dropCachedRange(fd, 4096, bytes.length - 4096)).toBe(0);
        expect(native.dropCachedRange(fd, 0, 0)).toBe(0);
      } finally {
        closeSync(fd);
      }
      expect(readFileSync(path).equals(bytes)).toBe(true);
      expect(native.dropCachedRange(fd, 0, 0)).toBe(-9); // EBADF: the descriptor is closed
      expect(() => native.dropCachedRange(fd, -1, 0)).toThrow(/expected a file descriptor/);
    },
  );
});
