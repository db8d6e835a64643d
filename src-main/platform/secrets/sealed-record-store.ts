import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { writeFileAtomic } from '../atomic-write';
import type { SealedFile } from './sealed-file';

export interface SealedRecordStore<T extends { id: string }> {
  list(): Promise<T[]>;
  /** The secret of a record, from the sealed file; undefined when it has none. */
  secretOf(id: string): Promise<string | undefined>;
  add(record: Omit<T, 'id'>, secret?: string): Promise<T>;
  remove(id: string): Promise<boolean>;
}

export interface SealedRecordStoreOptions<S extends z.ZodType<{ id: string }>> {
  /** The plain JSON file: `{ "version": 1, "<listKey>": [records] }`. */
  path: string;
  /** The name of the list in the file (`accounts`, `tenants`). */
  listKey: string;
  record: S;
  secrets: SealedFile;
}

const secretsSchema = z.record(z.string(), z.string());

/**
 * Things the user added that carry a secret (Kodo accounts, Entra tenants): everything but the
 * secret in a plain JSON file, the secrets in a sealed file beside it (AES-GCM, key in the OS
 * keychain on the desktop). Both are written atomically; on add the secret is written first,
 * so a crash never leaves a record without its secret, and on remove the record goes first,
 * so a crash never leaves a record whose secret is gone.
 */
export function createSealedRecordStore<S extends z.ZodType<{ id: string }>>(
  options: SealedRecordStoreOptions<S>,
): SealedRecordStore<z.infer<S>> {
  type Stored = z.infer<S>;
  const fileSchema = z.object({ version: z.literal(1), [options.listKey]: z.array(options.record) });

  const readRecords = async (): Promise<Stored[]> => {
    let text: string;
    try {
      text = await readFile(options.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const parsed = fileSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`${options.path} is not a ${options.listKey} file: ${parsed.error.issues[0]?.message}`);
    return parsed.data[options.listKey] as Stored[];
  };
  const readSecrets = async (): Promise<Record<string, string>> => secretsSchema.parse(JSON.parse((await options.secrets.read()) ?? '{}'));
  const writeRecords = (records: Stored[]) =>
    writeFileAtomic(options.path, `${JSON.stringify({ version: 1, [options.listKey]: records }, null, 2)}\n`);

  return {
    list: readRecords,
    async secretOf(id) {
      return (await readSecrets())[id];
    },
    async add(record, secret) {
      const stored = { id: randomUUID(), ...record } as Stored;
      if (secret !== undefined) await options.secrets.write(JSON.stringify({ ...(await readSecrets()), [stored.id]: secret }));
      await writeRecords([...(await readRecords()), stored]);
      return stored;
    },
    async remove(id) {
      const records = await readRecords();
      if (!records.some((r) => r.id === id)) return false;
      await writeRecords(records.filter((r) => r.id !== id));
      const secrets = await readSecrets();
      if (id in secrets) {
        const { [id]: _gone, ...rest } = secrets;
        await options.secrets.write(JSON.stringify(rest));
      }
      return true;
    },
  };
}
