import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import qiniu from 'qiniu';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../platform/logger';
import { newTestDomain, TEST_DOMAIN_SUFFIX } from './bucket-domains';
import { MetadataStore } from './metadata-store';
import { createStorageEmulator } from './storage-emulator';
import { AK, httpGet, startTestEmulator, uploadToken, type TestEmulator } from './test-support';

let env: TestEmulator;
let bm: qiniu.rs.BucketManager;

beforeAll(async () => {
  env = await startTestEmulator();
  bm = new qiniu.rs.BucketManager(env.mac, env.config);
});

afterAll(() => env.close());

const TEST_DOMAIN = new RegExp(`^q[a-z0-9]{8}${TEST_DOMAIN_SUFFIX.replace(/\./g, '\\.')}$`);

/** A QBox-signed uc POST (the SDK has no call for domain binding). */
async function ucPost(path: string): Promise<{ status: number; json: unknown }> {
  const url = `http://${env.host}${path}`;
  const response = await fetch(url, { method: 'POST', headers: { Authorization: qiniu.util.generateAccessToken(env.mac, url) } });
  return { status: response.status, json: await response.json() };
}

const domainsOf = async (bucket: string) => ((await bm.listBucketDomains(bucket)).data as Array<{ domain: string }>).map((d) => d.domain);
const b64 = (domain: string) => qiniu.util.urlsafeBase64Encode(domain);

describe('bucket download domains', () => {
  it('a bucket made through the SDK gets a test domain that serves its objects, signed when private', async () => {
    expect((await bm.createBucket('fresh-photos', { regionId: 'z2' })).resp.statusCode).toBe(200);
    const [domain, ...more] = await domainsOf('fresh-photos');
    expect(domain).toMatch(TEST_DOMAIN);
    expect(more).toEqual([]);
    await new qiniu.form_up.FormUploader(env.config).put(
      uploadToken({ scope: 'fresh-photos' }),
      'a.txt',
      'hello',
      new qiniu.form_up.PutExtra(),
    );
    expect((await httpGet(env.emulator.port, '/a.txt', { Host: domain! })).body.toString()).toBe('hello');

    // Private through the `private` API: the plain URL is refused, privateDownloadUrl works.
    expect((await bm.putBucketAccessMode('fresh-photos', { private: 1 })).resp.statusCode).toBe(200);
    expect(((await bm.getBucketInfo('fresh-photos')).data as { private: number }).private).toBe(1);
    expect((await httpGet(env.emulator.port, '/a.txt', { Host: domain! })).status).toBe(401);
    const signed = new URL(bm.privateDownloadUrl(`http://${domain}`, 'a.txt', Math.floor(Date.now() / 1000) + 60));
    expect((await httpGet(env.emulator.port, signed.pathname + signed.search, { Host: domain! })).body.toString()).toBe('hello');
    // Each bucket gets its own.
    await bm.createBucket('fresh-other', { regionId: 'z0' });
    expect((await domainsOf('fresh-other'))[0]).not.toBe(domain);
  });

  it('binds and unbinds a domain with uc publish/unpublish; bad names and another bucket’s domain are refused', async () => {
    expect(await ucPost(`/publish/${b64('Cdn.Example.test')}/from/pub`)).toEqual({ status: 200, json: {} });
    expect(await domainsOf('pub')).toEqual(['pub.test', 'cdn.example.test']);
    await new qiniu.form_up.FormUploader(env.config).put(
      uploadToken({ scope: 'pub' }),
      'bound.txt',
      'via cdn',
      new qiniu.form_up.PutExtra(),
    );
    expect((await httpGet(env.emulator.port, '/bound.txt', { Host: 'cdn.example.test' })).body.toString()).toBe('via cdn');

    expect((await ucPost(`/publish/${b64('cdn.example.test')}/from/priv`)).status).toBe(400);
    expect((await ucPost(`/publish/${b64('not a domain')}/from/pub`)).status).toBe(400);
    expect((await ucPost(`/publish/${b64('x.example.test')}/from/other`)).status).toBe(631);
    expect((await ucPost(`/publish/${b64('x.example.test')}`)).status).toBe(400);

    expect(await ucPost(`/unpublish/${b64('cdn.example.test')}`)).toEqual({ status: 200, json: {} });
    expect(await domainsOf('pub')).toEqual(['pub.test']);
    expect((await httpGet(env.emulator.port, '/bound.txt', { Host: 'cdn.example.test' })).status).not.toBe(200);
    expect((await ucPost(`/unpublish/${b64('cdn.example.test')}`)).status).toBe(404);
    // Another account's domain cannot be unbound.
    expect((await ucPost(`/unpublish/${b64('other.test')}`)).status).toBe(404);
  });

  it('at start, buckets without a domain (made before test domains) get one, and keep it across restarts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kodo-domains-'));
    const start = () =>
      createStorageEmulator({
        listen: '127.0.0.1:0',
        dataDir: dir,
        accounts: [{ access_key: AK, secret_key: 'sk-domains', buckets: [{ name: 'configured' }] }],
        logger: createMemoryLogger(),
        tls: { enabled: false, names: [] },
      });
    try {
      await (await start()).close();
      // A bucket as the emulator made them before: no domain.
      const db = new MetadataStore(join(dir, 'storage', 'metadata.sqlite'));
      db.upsertBucket({
        name: 'legacy',
        owner: AK,
        private: 0,
        domains: '[]',
        mirror: null,
        anti_leech_key: null,
        created: Date.now(),
        region: 'z0',
      });
      db.close();
      const first = await start();
      const read = () => {
        const store = new MetadataStore(join(dir, 'storage', 'metadata.sqlite'));
        try {
          return Object.fromEntries(store.allBuckets().map((b) => [b.name, JSON.parse(b.domains) as string[]]));
        } finally {
          store.close();
        }
      };
      await first.close();
      const before = read();
      expect(before['legacy']).toEqual([expect.stringMatching(TEST_DOMAIN)]);
      expect(before['configured']).toEqual([expect.stringMatching(TEST_DOMAIN)]);
      await (await start()).close();
      expect(read()).toEqual(before);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a new test domain never repeats one already taken', () => {
    let calls = 0;
    const random = (size: number) => Buffer.alloc(size, calls++ < 2 ? 0 : 1);
    const taken = `qaaaaaaaa${TEST_DOMAIN_SUFFIX}`;
    expect(newTestDomain((d) => d === taken, random)).toBe(`qbbbbbbbb${TEST_DOMAIN_SUFFIX}`);
  });
});
