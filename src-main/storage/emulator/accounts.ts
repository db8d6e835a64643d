import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { writeFileAtomic } from '../../platform/atomic-write';
import type { Account } from './auth';
import type { AccountConfig } from './emulator-config';

export interface AccountSet {
  list: Account[];
  byKey: Map<string, Account>;
  buckets: {
    owner: string;
    name: string;
    private: boolean;
    domains: string[];
    mirror?: string | undefined;
    antiLeechKey?: string | undefined;
    accelerateDomain?: string | undefined;
    region: string;
    tags?: Record<string, string> | undefined;
  }[];
  demo: boolean;
}

const DEMO_BUCKET = 'demo';
const DEMO_DOMAIN = 'demo.kodo.localhost';

/**
 * Accounts from config; without any, one demo account whose keys are generated on first run and
 * kept in `<root>/demo-account.json` (0600) so a restart keeps working tokens.
 */
export async function loadAccounts(root: string, configured: AccountConfig[] | undefined): Promise<AccountSet> {
  if (configured && configured.length > 0) {
    const list = configured.map((a) => ({ accessKey: a.access_key, secretKey: a.secret_key, dirRefresh: a.dir_refresh }));
    const buckets = configured.flatMap((a) =>
      a.buckets.map((b) => ({
        owner: a.access_key,
        name: b.name,
        private: b.private,
        domains: b.domains,
        mirror: b.mirror,
        antiLeechKey: b.anti_leech_key,
        accelerateDomain: b.accelerate_domain,
        region: b.region,
        tags: b.tags,
      })),
    );
    return { list, byKey: new Map(list.map((a) => [a.accessKey, a])), buckets, demo: false };
  }
  const path = join(root, 'demo-account.json');
  let keys: { access_key: string; secret_key: string };
  try {
    keys = JSON.parse(await readFile(path, 'utf8')) as typeof keys;
  } catch {
    keys = { access_key: 'demo' + randomBytes(10).toString('hex'), secret_key: randomBytes(24).toString('base64url') };
    await writeFileAtomic(path, JSON.stringify(keys, null, 2) + '\n');
  }
  const account: Account = { accessKey: keys.access_key, secretKey: keys.secret_key, dirRefresh: true };
  return {
    list: [account],
    byKey: new Map([[account.accessKey, account]]),
    buckets: [{ owner: account.accessKey, name: DEMO_BUCKET, private: false, domains: [DEMO_DOMAIN], region: 'z0' }],
    demo: true,
  };
}
