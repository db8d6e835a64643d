import { get } from 'node:http';
import qiniu from 'qiniu';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../platform/logger';
import { createStorageEmulator, type RunningStorageEmulator } from './storage-emulator';
import { AK, httpGet, startTestEmulator, uploadToken, type TestEmulator } from './test-support';

// uc's bucket APIs through the npm qiniu SDK and signed calls as other SDKs send them: buckets
// in regions, the region query, paged and per-region lists, bucket info, tags.
let env: TestEmulator;
let bm: qiniu.rs.BucketManager;

/** A QBox-signed management call (the PHP and Go SDKs' uc requests). */
async function uc(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown; type: string | null }> {
  const url = `http://${env.host}${path}`;
  const text = body === undefined ? undefined : JSON.stringify(body);
  const token = qiniu.util.generateAccessToken(env.mac, url, '');
  const response = await fetch(url, {
    method,
    headers: { Authorization: token, ...(text ? { 'Content-Type': 'application/json' } : {}) },
    ...(text ? { body: text } : {}),
  });
  const raw = await response.text();
  return { status: response.status, json: raw ? JSON.parse(raw) : undefined, type: response.headers.get('content-type') };
}

beforeAll(async () => {
  env = await startTestEmulator();
  bm = new qiniu.rs.BucketManager(env.mac, env.config);
});
afterAll(() => env.close());

describe('buckets in regions', () => {
  it('creates a bucket in a region, lists it by region, answers its region in the query and info, drops it', async () => {
    const made = await bm.createBucket('north-media', { regionId: 'z1' });
    expect(made.resp.statusCode).toBe(200);
    expect(made.data).toEqual({});
    expect((await bm.createBucket('north-media', { regionId: 'z1' })).resp.statusCode).toBe(614);
    expect((await uc('POST', '/mkbucketv3/moon-media/region/moon0')).status).toBe(400);

    expect((await uc('POST', '/buckets?region=z1')).json).toEqual(['north-media']);
    expect((await uc('POST', '/buckets')).json).toEqual(expect.arrayContaining(['north-media', 'pub', 'priv']));
    const infos = (await uc('POST', '/v2/bucketInfos?region=z1&shared=false&fs=false')).json as {
      name: string;
      info: { region: string; zone: string; private: number };
    }[];
    expect(infos).toEqual([{ name: 'north-media', info: expect.objectContaining({ region: 'z1', zone: 'z1', private: 0 }) }]);
    expect((await bm.getBucketInfo('north-media')).data).toMatchObject({ region: 'z1' });

    const query = await fetch(`http://${env.host}/v4/query?ak=${AK}&bucket=north-media`);
    const hosts = (
      (await query.json()) as {
        hosts: { region: string; up: { domains: string[] }; io: { domains: string[] }; s3: { region_alias: string } }[];
      }
    ).hosts;
    expect(hosts[0]).toMatchObject({
      region: 'z1',
      up: { domains: [env.host] },
      io: { domains: [env.host] },
      s3: { region_alias: 'cn-north-1' },
    });

    const page = (await uc('GET', '/v3/buckets?region=z0&limit=2')).json as {
      buckets: { name: string; region: string }[];
      marker: string;
      is_truncated: boolean;
    };
    expect(page.buckets.map((b) => b.region)).toEqual(['z0', 'z0']);
    expect(page.is_truncated).toBe(true);
    const rest = (await uc('GET', `/v3/buckets?region=z0&limit=100&marker=${page.marker}`)).json as {
      buckets: { name: string }[];
      is_truncated: boolean;
    };
    expect(rest.buckets.map((b) => b.name)).not.toContain(page.buckets[0]!.name);
    expect(rest.is_truncated).toBe(false);

    await new qiniu.form_up.FormUploader(env.config).put(uploadToken({ scope: 'north-media' }), 'a.txt', 'a', new qiniu.form_up.PutExtra());
    const notEmpty = await bm.deleteBucket('north-media');
    expect(notEmpty.resp.statusCode).toBe(400);
    await bm.delete('north-media', 'a.txt');
    const dropped = await bm.deleteBucket('north-media');
    expect(dropped.resp.statusCode).toBe(200);
    expect(dropped.data).toEqual({});
    expect((await uc('POST', '/buckets?region=z1')).json).toEqual([]);
  });

  it('tags a bucket, lists buckets by tag, and refuses bad tags', async () => {
    expect(
      (
        await uc('PUT', '/bucketTagging?bucket=pub', {
          Tags: [
            { Key: 'team', Value: 'video' },
            { Key: 'env', Value: 'prod' },
          ],
        })
      ).status,
    ).toBe(200);
    expect((await uc('GET', '/bucketTagging?bucket=pub')).json).toEqual({
      Tags: [
        { Key: 'team', Value: 'video' },
        { Key: 'env', Value: 'prod' },
      ],
    });
    const tagged = await bm.listBucket({ shared: 'false', tagCondition: { team: 'video' } });
    expect(tagged.data).toEqual(['pub']);
    expect((await bm.listBucket({ shared: 'false', tagCondition: { team: 'audio' } })).data).toEqual([]);
    for (const bad of [
      { Tags: [{ Key: 'kodo-x', Value: '1' }] },
      {
        Tags: [
          { Key: 'a', Value: '1' },
          { Key: 'a', Value: '2' },
        ],
      },
      { Tags: Array.from({ length: 11 }, (_, i) => ({ Key: `k${i}`, Value: '' })) },
      { tags: [] },
    ]) {
      const refused = await uc('PUT', '/bucketTagging?bucket=pub', bad);
      expect(refused.status).toBe(400);
      expect((refused.json as { error: string }).error).toMatch(/^bucketTagging: /);
    }
    expect((await uc('DELETE', '/bucketTagging?bucket=pub')).status).toBe(200);
    expect((await uc('GET', '/bucketTagging?bucket=pub')).json).toEqual({ Tags: [] });
  });

  it('answers Kodo public host names per region when configured to (for SDK suites behind a hosts mapping); tags come from the config', async () => {
    const emulator: RunningStorageEmulator = await createStorageEmulator({
      listen: '127.0.0.1:0',
      dataDir: `${env.dir}/named`,
      accounts: [
        {
          access_key: 'named-ak',
          secret_key: 'named-sk',
          buckets: [
            { name: 'sg', region: 'as0', tags: { team: 'ops' } },
            { name: 'hz', region: 'z0' },
          ],
        },
      ],
      logger: createMemoryLogger(),
      regionHosts: 'qiniu',
      tls: { enabled: false, names: [] },
    });
    try {
      const hostsOf = async (bucket: string) =>
        (
          (await (await fetch(`${emulator.url}/v4/query?ak=named-ak&bucket=${bucket}`)).json()) as {
            hosts: Record<string, { domains: string[] }>[];
          }
        ).hosts[0]!;
      await expect(hostsOf('sg')).resolves.toMatchObject({
        region: 'as0',
        up: { domains: ['upload-as0.qiniup.com', 'up-as0.qiniup.com'] },
        io: { domains: ['iovip-as0.qbox.me'] },
        rs: { domains: ['rs-as0.qiniuapi.com'] },
      });
      expect((await hostsOf('hz')).up!.domains).toEqual(['upload.qiniup.com', 'up.qiniup.com']);
      const legacy = (await (await fetch(`${emulator.url}/v2/query?ak=named-ak&bucket=sg`)).json()) as { io: { src: { main: string[] } } };
      expect(legacy.io.src.main).toEqual(['iovip-as0.qbox.me']);
      // Tags from the config.
      const tagsUrl = `${emulator.url}/bucketTagging?bucket=sg`;
      const tags = await fetch(tagsUrl, {
        headers: { Authorization: qiniu.util.generateAccessToken(new qiniu.auth.digest.Mac('named-ak', 'named-sk'), tagsUrl, '') },
      });
      expect(await tags.json()).toEqual({ Tags: [{ Key: 'team', Value: 'ops' }] });
    } finally {
      await emulator.close();
    }
  });
});

describe('wire details the SDKs read', () => {
  it('the upload host root takes only POST; /v2/list is a line stream; metadata headers are canonical', async () => {
    const root = await httpGet(env.emulator.port, '/');
    expect(root.status).toBe(405);
    expect(JSON.parse(root.body.toString())).toEqual({ error: 'only allowed POST method' });
    expect(root.headers.get('x-reqid')).toBeTruthy();

    await new qiniu.form_up.FormUploader(env.config).put(
      uploadToken({ scope: 'pub' }),
      'meta.txt',
      'm',
      Object.assign(new qiniu.form_up.PutExtra(), { metadata: { 'x-qn-meta-m1': 'one' } }),
    );
    // Raw header names as sent (fetch lower-cases them).
    const download = await new Promise<string[]>((resolve, reject) => {
      get({ host: '127.0.0.1', port: env.emulator.port, path: '/meta.txt', headers: { Host: 'pub.test' } }, (res) => {
        res.resume();
        resolve(res.rawHeaders.filter((_, i) => i % 2 === 0));
      }).on('error', reject);
    });
    expect(download).toContain('X-Qn-Meta-M1');

    const list = await uc('POST', '/v2/list?bucket=pub&limit=1');
    expect(list.type).toBe('application/x-ndjson');
  });
});
