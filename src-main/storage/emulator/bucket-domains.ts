import { randomBytes } from 'node:crypto';
import { urlsafeB64Decode } from './encoding';
import { sendJson } from './http-kit';
import { KodoError } from './kodo-error';
import type { ManagementRoute } from './kodo-route';
import type { BucketRow, MetadataStore } from './metadata-store';
import type { ObjectService } from './object-service';

// Download domains of buckets. Kodo gives every new bucket a test domain of its own
// (`<random>.<hd|hb|hn>-bkt.clouddn.com`, HTTP only) and binds more through its domain API; the
// emulator does the same with names under `bkt.kodo.localhost`, because every browser sends
// `*.localhost` to loopback without a hosts entry, and the emulator routes downloads by Host.

export const TEST_DOMAIN_SUFFIX = '.bkt.kodo.localhost';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A new random test domain no bucket holds yet, e.g. `q7k2m9x4z.bkt.kodo.localhost`. */
export function newTestDomain(taken: (domain: string) => boolean, random: (size: number) => Buffer = randomBytes): string {
  for (;;) {
    const label = [...random(9)].map((byte) => ALPHABET[byte % ALPHABET.length]).join('');
    // A DNS label starts with a letter in Kodo's test domains.
    const domain = `q${label.slice(1)}${TEST_DOMAIN_SUFFIX}`;
    if (!taken(domain)) return domain;
  }
}

const domainsOf = (row: BucketRow): string[] => JSON.parse(row.domains) as string[];

/** The bucket that serves a domain (a `Host` header, the port ignored), if any. */
export function bucketOfDomain(db: MetadataStore, host: string): BucketRow | undefined {
  const bare = host.replace(/:\d+$/, '').toLowerCase();
  return db
    .allBuckets()
    .find((bucket) => domainsOf(bucket).some((d) => d.toLowerCase() === bare || d.toLowerCase() === host.toLowerCase()));
}

/**
 * Buckets without any domain get a test domain: new ones at `mkbucketv3`, and at start those
 * made before the emulator gave one, so their objects can be downloaded and previewed.
 * Answers the names of the buckets that got one.
 */
export function giveTestDomains(db: MetadataStore): string[] {
  const given: string[] = [];
  for (const bucket of db.allBuckets()) {
    if (domainsOf(bucket).length > 0) continue;
    const domain = newTestDomain((d) => bucketOfDomain(db, d) !== undefined);
    db.upsertBucket({ ...bucket, domains: JSON.stringify([domain]) });
    given.push(bucket.name);
  }
  return given;
}

/** A host name as a domain API takes it: lower-case labels of letters, digits and `-`, an optional leading `*.`. */
const DOMAIN_NAME = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

function decodeDomain(encoded: string | undefined): string {
  const domain = urlsafeB64Decode(encoded ?? '')
    .toString('utf8')
    .trim()
    .toLowerCase();
  if (domain.length > 253 || !DOMAIN_NAME.test(domain))
    throw new KodoError(400, `invalid domain ${JSON.stringify(domain)}: expected a host name such as cdn.example.com`);
  return domain;
}

/**
 * `/publish/<urlsafeB64(domain)>/from/<bucket>` binds a domain to a bucket and
 * `/unpublish/<urlsafeB64(domain)>` takes it off, as Kodo's uc API does. Kodo also wants the
 * domain's CNAME to point at its CDN before it serves it; here the emulator serves it at once by
 * Host. A domain bound to another bucket is refused (one domain, one bucket).
 */
export function domainRoutes(db: MetadataStore, objects: ObjectService): ManagementRoute[] {
  const malformed = (message: string) => () => {
    throw new KodoError(400, message);
  };
  return [
    {
      method: '*',
      path: '/publish/:domain/from/:bucket',
      handler: ({ res, params, account }) => {
        const domain = decodeDomain(params.domain);
        const bucket = objects.ownedBucket(params.bucket!, account.accessKey);
        const holder = bucketOfDomain(db, domain);
        if (holder && holder.name !== bucket.name) throw new KodoError(400, `the domain ${domain} is already bound to another bucket`);
        if (!holder) db.upsertBucket({ ...bucket, domains: JSON.stringify([...domainsOf(bucket), domain]) });
        sendJson(res, 200, {});
      },
    },
    { method: '*', path: '/publish/*', handler: malformed('publish: expected /publish/<urlsafe base64 domain>/from/<bucket>') },
    {
      method: '*',
      path: '/unpublish/:domain',
      handler: ({ res, params, account }) => {
        const domain = decodeDomain(params.domain);
        const holder = bucketOfDomain(db, domain);
        if (!holder || holder.owner !== account.accessKey)
          throw new KodoError(404, `the domain ${domain} is not bound to any of your buckets`);
        db.upsertBucket({ ...holder, domains: JSON.stringify(domainsOf(holder).filter((d) => d.toLowerCase() !== domain)) });
        sendJson(res, 200, {});
      },
    },
    { method: '*', path: '/unpublish/*', handler: malformed('unpublish: expected /unpublish/<urlsafe base64 domain>') },
  ];
}
