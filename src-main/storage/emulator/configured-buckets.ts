import type { AccountSet } from './accounts';
import type { MetadataStore } from './metadata-store';

/**
 * Writes the buckets of the config into the metadata store, as they are configured now; returns
 * the names of those that were not there before (a new demo bucket gets the sample files).
 */
export function storeConfiguredBuckets(db: MetadataStore, accountSet: AccountSet, clock: () => number): string[] {
  const newBuckets: string[] = [];
  for (const b of accountSet.buckets) {
    const existing = db.bucket(b.name);
    if (existing && existing.owner !== b.owner) throw new Error(`storage.emulator: bucket ${b.name} is configured for two accounts`);
    if (!existing) newBuckets.push(b.name);
    db.upsertBucket({
      name: b.name,
      owner: b.owner,
      private: b.private ? 1 : 0,
      // A config bucket without domains keeps the test domain it was given (links stay valid).
      domains: b.domains.length > 0 || !existing ? JSON.stringify(b.domains) : existing.domains,
      mirror: b.mirror ?? null,
      anti_leech_key: b.antiLeechKey ?? null,
      created: existing?.created ?? clock(),
      region: b.region,
    });
    db.putSetting(b.name, 'accelerate', 'default', b.accelerateDomain ?? null);
    if (b.tags)
      db.putSetting(
        b.name,
        'tags',
        'default',
        Object.entries(b.tags).map(([Key, Value]) => ({ Key, Value })),
      );
  }
  return newBuckets;
}
