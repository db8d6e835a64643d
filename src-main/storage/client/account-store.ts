import { z } from 'zod';
import { customEndpointsSchema, kodoRegion, type StorageAccount } from '@shared/contract/storage';
import type { SealedFile } from '../../platform/secrets/sealed-file';
import { createSealedRecordStore, type SealedRecordStore } from '../../platform/secrets/sealed-record-store';

const storedAccountSchema = z.object({
  id: z.string(),
  name: z.string(),
  accessKey: z.string(),
  region: kodoRegion.optional(),
  endpoints: customEndpointsSchema.optional(),
});

export type KodoAccount = z.infer<typeof storedAccountSchema>;
export type AccountStore = SealedRecordStore<KodoAccount>;

/**
 * Real Kodo accounts the user added: names, AccessKeys and regions in `accounts.json`, the
 * SecretKeys sealed beside it.
 */
export function createAccountStore(options: { path: string; secrets: SealedFile }): AccountStore {
  return createSealedRecordStore({ path: options.path, listKey: 'accounts', record: storedAccountSchema, secrets: options.secrets });
}

/** The console's view of a stored account: everything but the secret. */
export const publicAccount = (account: KodoAccount): StorageAccount => ({ ...account, kind: 'kodo' });
