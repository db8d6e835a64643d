import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../atomic-write';

// Secrets at rest (the sign-in token cache, storage account keys): AES-256-GCM, so a file that was read by someone
// else reveals nothing and a file that was changed is refused instead of half-trusted.
// Layout: MAGIC (6) | IV (12) | TAG (16) | ciphertext. The magic is also authenticated (AAD),
// together with a label naming what the file holds, so a sealed file of another kind does
// not open as this one.

const MAGIC = Buffer.from('RCSEAL', 'ascii');
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = MAGIC.length + 1 + IV_BYTES + TAG_BYTES;

/** A sealed file that was changed, truncated, or sealed with another key. */
export class SealedFileError extends Error {
  override readonly name = 'SealedFileError';
}

export function seal(plaintext: string | Uint8Array, key: Uint8Array, label: string): Buffer {
  if (key.length !== 32) throw new TypeError('an AES-256 key is 32 bytes');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const header = Buffer.concat([MAGIC, Buffer.from([VERSION])]);
  cipher.setAAD(Buffer.concat([header, Buffer.from(label, 'utf8')]));
  const body = Buffer.concat([cipher.update(typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext), cipher.final()]);
  return Buffer.concat([header, iv, cipher.getAuthTag(), body]);
}

export function unseal(sealed: Uint8Array, key: Uint8Array, label: string): Buffer {
  const data = Buffer.from(sealed);
  if (data.length < HEADER_BYTES || !data.subarray(0, MAGIC.length).equals(MAGIC)) throw new SealedFileError('not a sealed file');
  if (data[MAGIC.length] !== VERSION) throw new SealedFileError(`sealed file version ${data[MAGIC.length]} is not supported`);
  const header = data.subarray(0, MAGIC.length + 1);
  const iv = data.subarray(header.length, header.length + IV_BYTES);
  const tag = data.subarray(header.length + IV_BYTES, HEADER_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(Buffer.concat([header, Buffer.from(label, 'utf8')]));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(data.subarray(HEADER_BYTES)), decipher.final()]);
  } catch {
    throw new SealedFileError('sealed file was altered or sealed with another key');
  }
}

export interface SealedFile {
  readonly path: string;
  /** The plaintext, or null when there is no file. Throws SealedFileError when it does not open. */
  read(): Promise<string | null>;
  /** Seals and replaces the file atomically (mode 0600). */
  write(plaintext: string): Promise<void>;
}

export function openSealedFile(options: { path: string; key: () => Promise<Uint8Array>; label: string }): SealedFile {
  return {
    path: options.path,
    async read() {
      let data: Buffer;
      try {
        data = await readFile(options.path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      return unseal(data, await options.key(), options.label).toString('utf8');
    },
    async write(plaintext) {
      await writeFileAtomic(options.path, seal(plaintext, await options.key(), options.label), 0o600);
    },
  };
}
