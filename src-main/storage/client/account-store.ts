import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { customEndpointsSchema, kodoRegion, type StorageAccount } from '../../../src-shared/contract/storage';
import { writeFileAtomic } from '../../platform/atomic-write';
import type { SealedFile } from '../../platform/secrets/sealed-file';

const storedAccountSchema = z.object({
  id: z.string(),
  name: z.string(),
  accessKey: z.string(),
  region: kodoRegion.optional(),
  endpoints: customEndpointsSchema.optional(),
});
const accountsFileSchema = z.object({ version: z.literal(1), accounts: z.array(storedAccountSchema) });
const secretsSchema = z.record(z.string(), z.string());

export type KodoAccount = z.infer<typeof storedAccountSchema>;

export interface AccountStore {
  list(): Promise<KodoAccount[]>;
  /** The SecretKey of an account, from the sealed file; undefined when it is not there. */
  secretOf(id: string): Promise<string | undefined>;
  add(account: Omit<KodoAccount, 'id'>, secretKey: string): Promise<KodoAccount>;
  remove(id: string): Promise<boolean>;
}

/**
 * Real Kodo accounts the user added: names, AccessKeys and regions in a plain JSON file, the
 * SecretKeys in a sealed file beside it (AES-GCM, key in the OS keychain on the desktop). Both
 * are written atomically; the secret is written first, so a crash never leaves an account
 * without its key.
 */
export function createAccountStore(options: { path: string; secrets: SealedFile }): AccountStore {
  const readAccounts = async (): Promise<KodoAccount[]> => {
    let text: string;
    try {
      text = await readFile(options.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const parsed = accountsFileSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`${options.path} is not an accounts file: ${parsed.error.issues[0]?.message}`);
    return parsed.data.accounts;
  };
  const readSecrets = async (): Promise<Record<string, string>> => secretsSchema.parse(JSON.parse((await options.secrets.read()) ?? '{}'));
  const writeAccounts = (accounts: KodoAccount[]) => writeFileAtomic(options.path, `${JSON.stringify({ version: 1, accounts }, null, 2)}\n`);

  return {
    list: readAccounts,
    async secretOf(id) {
      return (await readSecrets())[id];
    },
    async add(account, secretKey) {
      const stored: KodoAccount = { id: randomUUID(), ...account };
      await options.secrets.write(JSON.stringify({ ...(await readSecrets()), [stored.id]: secretKey }));
      await writeAccounts([...(await readAccounts()), stored]);
      return stored;
    },
    async remove(id) {
      const accounts = await readAccounts();
      if (!accounts.some((a) => a.id === id)) return false;
      await writeAccounts(accounts.filter((a) => a.id !== id));
      const { [id]: _gone, ...rest } = await readSecrets();
      await options.secrets.write(JSON.stringify(rest));
      return true;
    },
  };
}

/** The console's view of a stored account: everything but the secret. */
export const publicAccount = (account: KodoAccount): StorageAccount => ({ ...account, kind: 'kodo' });
