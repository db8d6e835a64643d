import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCacheKeySource, type SafeStorageLike } from './key-source';
import { openSealedFile, SealedFileError, seal, unseal } from './sealed-file';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sealed-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Stands in for Electron's safeStorage: a reversible transform the key file must go through. */
function fakeSafeStorage(available = true): SafeStorageLike & { calls: number } {
  const state = { calls: 0 };
  return Object.assign(state, {
    isEncryptionAvailable: () => available,
    encryptString: (text: string) => {
      state.calls += 1;
      return Buffer.from(`kc:${Buffer.from(text).reverse().toString('base64')}`);
    },
    decryptString: (data: Buffer) => {
      const text = data.toString();
      if (!text.startsWith('kc:')) throw new Error('not ours');
      return Buffer.from(text.slice(3), 'base64').reverse().toString();
    },
  });
}

describe('sealed files', () => {
  const secret = '{"AccessToken":{"x":{"secret":"eyJ0eXAiOiJKV1Qi.access-token-in-clear"}}}';

  it('never holds the plaintext and opens only with the same key and label', async () => {
    const key = createCacheKeySource({ path: join(dir, 'cache.key') });
    const file = openSealedFile({ path: join(dir, 'cache.bin'), key, label: 'tokens' });
    expect(await file.read()).toBeNull();
    await file.write(secret);

    const bytes = await readFile(join(dir, 'cache.bin'));
    expect(bytes.includes(Buffer.from('access-token-in-clear'))).toBe(false);
    expect(bytes.includes(Buffer.from('AccessToken'))).toBe(false);
    expect((await stat(join(dir, 'cache.bin'))).mode & 0o777).toBe(0o600);
    expect(await file.read()).toBe(secret);

    const raw = await key();
    expect(() => unseal(bytes, raw, 'other label')).toThrow(SealedFileError);
    expect(() => unseal(bytes, Buffer.alloc(32, 7), 'tokens')).toThrow(SealedFileError);
  });

  it('refuses a file with any byte changed, truncated, or not sealed at all', async () => {
    const key = Buffer.alloc(32, 1);
    const sealed = seal(secret, key, 'tokens');
    for (const at of [0, 7, 20, 40, sealed.length - 1]) {
      const tampered = Buffer.from(sealed);
      tampered[at] = tampered[at]! ^ 0x01;
      expect(() => unseal(tampered, key, 'tokens')).toThrow(SealedFileError);
    }
    expect(() => unseal(sealed.subarray(0, sealed.length - 3), key, 'tokens')).toThrow(SealedFileError);
    expect(() => unseal(Buffer.from(secret), key, 'tokens')).toThrow('not a sealed file');
    expect(unseal(sealed, key, 'tokens').toString()).toBe(secret);
  });

  it('keeps the key in a 0600 file, reused across restarts', async () => {
    const path = join(dir, 'directory', 'token-cache.key');
    const first = await createCacheKeySource({ path })();
    expect(first).toHaveLength(32);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ version: 1, protection: 'file' });
    expect(Buffer.compare(await createCacheKeySource({ path })(), first)).toBe(0);
  });

  it('wraps the key with safeStorage when it can, and moves a clear key under it', async () => {
    const path = join(dir, 'token-cache.key');
    const clear = await createCacheKeySource({ path })();

    const safe = fakeSafeStorage();
    const source = createCacheKeySource({ path, safeStorage: safe });
    expect(Buffer.compare(await source(), clear)).toBe(0);
    expect(source.protection()).toBe('safeStorage');
    const stored = JSON.parse(await readFile(path, 'utf8')) as { protection: string; key: string };
    expect(stored.protection).toBe('safeStorage');
    expect(stored.key).not.toContain(Buffer.from(clear).toString('base64'));
    expect(Buffer.compare(await createCacheKeySource({ path, safeStorage: fakeSafeStorage() })(), clear)).toBe(0);

    // Without the keychain (same data dir run headless) the key cannot be unlocked: a new one is made.
    const resets: string[] = [];
    const headless = await createCacheKeySource({ path, safeStorage: fakeSafeStorage(false), onReset: (why) => resets.push(why) })();
    expect(Buffer.compare(headless, clear)).not.toBe(0);
    expect(resets).toEqual(['the token cache key could not be unlocked (safeStorage)']);
  });

  it('replaces a damaged key file', async () => {
    const path = join(dir, 'token-cache.key');
    await writeFile(path, 'garbage');
    const resets: string[] = [];
    expect(await createCacheKeySource({ path, onReset: (why) => resets.push(why) })()).toHaveLength(32);
    expect(resets).toEqual(['the token cache key file is damaged']);
  });
});
