import qiniu from 'qiniu';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { BucketSettings, BucketSummary } from '@shared/contract/storage';
import type { TestEngine } from '../../engine/test-engine';
import { getThroughEmulator, put, sdk, startStorage } from '../test-support';

type Ok<T> = { ok: true; value: T };

/** The official SDK on the emulator's port, uc included, to read back what the service holds. */
function manager(port: number): qiniu.rs.BucketManager {
  const host = `127.0.0.1:${port}`;
  const uc = new qiniu.httpc.StaticEndpointsProvider([new qiniu.httpc.Endpoint(host, { defaultScheme: 'http' })]);
  return new qiniu.rs.BucketManager(
    sdk(port).mac,
    new qiniu.conf.Config({ zone: sdk(port).config.zone!, useHttpsDomain: false, ucEndpointsProvider: uc }),
  );
}

describe('bucket settings through the storage service', () => {
  let running: TestEngine | undefined;
  afterEach(async () => running?.stop());

  it('a bucket made in the console, private in z1, lists so, previews a thumbnail, and links signed until expiry', async () => {
    const started = await startStorage();
    running = started.running;
    const { call, port } = started;
    expect(await call('createBucket', { accountId: 'local', bucket: 'made-here', region: 'z1', private: true })).toEqual({ ok: true });
    const png = await sharp({ create: { width: 2000, height: 1000, channels: 3, background: { r: 0, g: 0, b: 255 } } })
      .png()
      .toBuffer();
    await put(port, 'made-here', ['wide.png'], () => png);
    const preview = (await call('previewLink', { accountId: 'local', bucket: 'made-here', key: 'wide.png', view: 'thumbnail' })) as Ok<{
      url: string;
    }>;
    // Before buckets got a test domain this was 500 (the proxy threw "no domain" as a fault).
    const thumb = await fetch(`${running.engine.server.url}${preview.value.url}`);
    expect(thumb.status).toBe(200);
    expect(await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).toMatchObject({ width: 960, height: 480 });

    const listed = ((await call('listBuckets', { accountId: 'local' })) as Ok<BucketSummary[]>).value.find((b) => b.name === 'made-here');
    expect(listed).toEqual({ name: 'made-here', region: 'z1', private: true, domains: [expect.stringMatching(/\.bkt\.kodo\.localhost$/)] });
    // What the service itself holds, through the SDK.
    expect((await manager(port).getBucketInfo('made-here')).data).toMatchObject({ private: 1, region: 'z1' });

    const link = (await call('downloadLink', { accountId: 'local', bucket: 'made-here', key: 'wide.png', expiresInSeconds: 60 })) as Ok<{
      url: string;
    }>;
    expect(link.value.url).toMatch(/^http:\/\/q[a-z0-9]{8}\.bkt\.kodo\.localhost:\d+\/wide\.png\?e=\d+&token=/);
    expect((await getThroughEmulator(port, link.value.url)).status).toBe(200);
    expect((await getThroughEmulator(port, link.value.url.split('?')[0]!)).status).toBe(401);

    // Public: a plain URL works.
    const open = (await call('setBucketAccess', { accountId: 'local', bucket: 'made-here', private: false })) as Ok<BucketSettings>;
    expect(open.value.private).toBe(false);
    const plain = (await call('downloadLink', { accountId: 'local', bucket: 'made-here', key: 'wide.png', expiresInSeconds: 60 })) as Ok<{
      url: string;
    }>;
    expect(plain.value.url).not.toContain('token=');
    expect((await getThroughEmulator(port, plain.value.url)).status).toBe(200);
  });

  it('binds and unbinds domains; with none left a preview says why (409), never 500', async () => {
    const started = await startStorage();
    running = started.running;
    const { call, port } = started;
    const bound = (await call('bindDomain', { accountId: 'local', bucket: 'photos', domain: 'CDN.Photos.test' })) as Ok<BucketSettings>;
    expect(bound.value.domains).toEqual([
      { domain: 'photos.test', test: false },
      { domain: 'cdn.photos.test', test: false },
    ]);
    expect(await call('bindDomain', { accountId: 'local', bucket: 'vault', domain: 'cdn.photos.test' })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/^Kodo 400.*another bucket/) },
    });
    expect(await call('bindDomain', { accountId: 'local', bucket: 'photos', domain: 'no spaces.test' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await call('unbindDomain', { accountId: 'local', bucket: 'vault', domain: 'cdn.photos.test' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    await call('unbindDomain', { accountId: 'local', bucket: 'photos', domain: 'cdn.photos.test' });
    const none = (await call('unbindDomain', { accountId: 'local', bucket: 'photos', domain: 'photos.test' })) as Ok<BucketSettings>;
    expect(none.value.domains).toEqual([]);

    await put(port, 'photos', ['a.txt']);
    const preview = (await call('previewLink', { accountId: 'local', bucket: 'photos', key: 'a.txt', view: 'original' })) as Ok<{
      url: string;
    }>;
    const answer = await fetch(`${running.engine.server.url}${preview.value.url}`);
    expect(answer.status).toBe(409);
    expect(await answer.text()).toContain('no domain');
  });

  it('lifecycle, CORS and referer rules are stored as Kodo holds them and read back', async () => {
    const started = await startStorage();
    running = started.running;
    const { call, port } = started;
    const target = { accountId: 'local', bucket: 'photos' };
    const rule = { name: 'tmp_files', prefix: 'tmp/', toInfrequentAfterDays: 0, toArchiveAfterDays: 0, deleteAfterDays: 7 };
    expect(((await call('saveLifecycleRule', { ...target, rule })) as Ok<BucketSettings>).value.lifecycle).toEqual([rule]);
    // Saving a rule of the same name updates it.
    expect(
      ((await call('saveLifecycleRule', { ...target, rule: { ...rule, deleteAfterDays: 30 } })) as Ok<BucketSettings>).value.lifecycle,
    ).toEqual([{ ...rule, deleteAfterDays: 30 }]);
    const cors = [
      {
        allowedOrigins: ['https://app.example.com'],
        allowedMethods: ['GET', 'HEAD'],
        allowedHeaders: [],
        exposedHeaders: ['ETag'],
        maxAgeSeconds: 600,
      },
    ];
    expect(((await call('setCorsRules', { ...target, rules: cors })) as Ok<BucketSettings>).value.cors).toEqual(cors);
    const referer = { mode: 'allow', patterns: ['*.example.com', 'example.com'], allowEmpty: false };
    expect(((await call('setReferer', { ...target, referer })) as Ok<BucketSettings>).value.referer).toEqual(referer);

    const bm = manager(port);
    expect((await bm.getBucketLifecycleRule('photos')).data).toMatchObject([{ name: 'tmp_files', prefix: 'tmp/', delete_after_days: 30 }]);
    expect((await bm.getCorsRules('photos')).data).toEqual([
      { allowed_origin: ['https://app.example.com'], allowed_method: ['GET', 'HEAD'], exposed_header: ['ETag'], max_age: 600 },
    ]);
    expect((await bm.getBucketInfo('photos')).data).toMatchObject({
      anti_leech_mode: 1,
      refer_wl: ['*.example.com', 'example.com'],
      no_refer: false,
    });

    expect(((await call('deleteLifecycleRule', { ...target, name: 'tmp_files' })) as Ok<BucketSettings>).value.lifecycle).toEqual([]);
    expect(
      ((await call('setReferer', { ...target, referer: { mode: 'off', patterns: [], allowEmpty: true } })) as Ok<BucketSettings>).value
        .referer,
    ).toEqual({ mode: 'off', patterns: [], allowEmpty: true });
    expect(await call('setReferer', { ...target, referer: { mode: 'deny', patterns: [], allowEmpty: true } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await call('setCorsRules', { ...target, rules: [{ allowedOrigins: [], allowedMethods: ['GET'] }] })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
  });
});
