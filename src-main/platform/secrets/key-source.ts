import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../atomic-write';

/**
 * The part of Electron's `safeStorage` the key source uses (the OS keychain: DPAPI, Keychain,
 * libsecret/kwallet). Passed in, because only the Electron entry may import electron; under
 * plain Node there is none and the key file alone protects the cache.
 */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

type KeyProtection = 'safeStorage' | 'file';

interface KeyFile {
  version: 1;
  /** `safeStorage`: `key` is the keychain-encrypted key; `file`: `key` is the key itself (file mode 0600). */
  protection: KeyProtection;
  key: string;
}

export interface CacheKeyOptions {
  /** Where the key lives, e.g. `<data_dir>/directory/token-cache.key`. */
  path: string;
  safeStorage?: SafeStorageLike | null;
  /** Told when a key cannot be read and a new one is made (what it sealed is lost). */
  onReset?: (reason: string) => void;
}

export interface CacheKeySource {
  (): Promise<Uint8Array>;
  /** How the key is protected once it was loaded or made. */
  protection(): KeyProtection | null;
}

function parseKeyFile(text: string): KeyFile | null {
  try {
    const value = JSON.parse(text) as Partial<KeyFile>;
    if (value.version === 1 && (value.protection === 'safeStorage' || value.protection === 'file') && typeof value.key === 'string')
      return value as KeyFile;
  } catch {
    /* unreadable: treated as absent */
  }
  return null;
}

/**
 * The 256-bit key of the token cache. A random key is made once and kept in a 0600 file in the
 * data dir; when Electron's safeStorage can encrypt, the key in that file is itself encrypted by
 * the OS keychain, so copying the data dir to another account or machine does not open the
 * cache. A key that cannot be read (keychain reset, file damaged) is replaced: the sealed cache
 * then no longer opens and the user signs in again, which beats failing forever.
 */
export function createCacheKeySource(options: CacheKeyOptions): CacheKeySource {
  const safe = options.safeStorage && options.safeStorage.isEncryptionAvailable() ? options.safeStorage : null;
  let loaded: Promise<{ key: Buffer; protection: KeyProtection }> | null = null;
  let protection: KeyProtection | null = null;

  const store = async (key: Buffer): Promise<KeyProtection> => {
    const file: KeyFile = safe
      ? { version: 1, protection: 'safeStorage', key: safe.encryptString(key.toString('base64')).toString('base64') }
      : { version: 1, protection: 'file', key: key.toString('base64') };
    await writeFileAtomic(options.path, `${JSON.stringify(file)}\n`, 0o600);
    return file.protection;
  };

  const unwrap = (file: KeyFile): Buffer | null => {
    try {
      if (file.protection === 'file') return Buffer.from(file.key, 'base64');
      if (!safe) return null;
      return Buffer.from(safe.decryptString(Buffer.from(file.key, 'base64')), 'base64');
    } catch {
      return null;
    }
  };

  const load = async (): Promise<{ key: Buffer; protection: KeyProtection }> => {
    let text: string | null = null;
    try {
      text = await readFile(options.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const file = text === null ? null : parseKeyFile(text);
    const key = file ? unwrap(file) : null;
    if (file && key?.length === 32) {
      // A key kept in the clear is moved under the keychain as soon as one is there.
      if (file.protection === 'file' && safe) return { key, protection: await store(key) };
      return { key, protection: file.protection };
    }
    if (text !== null)
      options.onReset?.(file ? `the token cache key could not be unlocked (${file.protection})` : 'the token cache key file is damaged');
    const fresh = randomBytes(32);
    return { key: fresh, protection: await store(fresh) };
  };

  const source = async (): Promise<Uint8Array> => {
    loaded ??= load().catch((error: unknown) => {
      loaded = null;
      throw error;
    });
    const result = await loaded;
    protection = result.protection;
    return result.key;
  };
  return Object.assign(source, { protection: () => protection });
}
