import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import qiniu from 'qiniu';
import { httpGet, startTestEmulator, uploadToken, type TestEmulator } from './test-support';

let env: TestEmulator;
let bm: qiniu.rs.BucketManager;

beforeAll(async () => {
  env = await startTestEmulator();
  bm = new qiniu.rs.BucketManager(env.mac, env.config);
});

afterAll(() => env.close());

describe('uc bucket configuration through BucketManager', () => {
  it('lifecycle rules: add, get, update, delete, and delete_after_days really deletes', async () => {
    expect((await bm.putBucketLifecycleRule('pub', { name: 'tmp_rule', prefix: 'tmp/', delete_after_days: 1 })).resp.statusCode).toBe(200);
    expect((await bm.putBucketLifecycleRule('pub', { name: 'tmp_rule', prefix: 'x/' })).resp.statusCode).toBe(400);
    expect((await bm.getBucketLifecycleRule('pub')).data).toMatchObject([{ name: 'tmp_rule', prefix: 'tmp/', delete_after_days: 1 }]);
    expect((await bm.updateBucketLifecycleRule('pub', { name: 'tmp_rule', prefix: 'tmp/', delete_after_days: 2 })).resp.statusCode).toBe(
      200,
    );
    expect((await bm.getBucketLifecycleRule('pub')).data).toMatchObject([{ delete_after_days: 2 }]);

    const form = new qiniu.form_up.FormUploader(env.config);
    await form.put(uploadToken({ scope: 'pub' }), 'tmp/old.txt', 'old', new qiniu.form_up.PutExtra());
    await form.put(uploadToken({ scope: 'pub' }), 'keep/old.txt', 'old', new qiniu.form_up.PutExtra());
    env.shift(3 * 86_400_000);
    try {
      await env.emulator.sweep();
    } finally {
      env.shift(0);
    }
    expect((await bm.stat('pub', 'tmp/old.txt')).resp.statusCode).toBe(612);
    expect((await bm.stat('pub', 'keep/old.txt')).resp.statusCode).toBe(200);
    expect((await bm.deleteBucketLifecycleRule('pub', 'tmp_rule')).resp.statusCode).toBe(200);
    expect((await bm.getBucketLifecycleRule('pub')).data).toEqual([]);
  });

  it('events, CORS, referer, access style, max-age, quota', async () => {
    expect(
      (await bm.putBucketEvent('pub', { name: 'ev1', event: ['put', 'delete'], callbackURL: 'http://127.0.0.1:1/e' })).resp.statusCode,
    ).toBe(200);
    expect((await bm.updateBucketEvent('pub', { name: 'ev1', event: 'put', callbackURL: 'http://127.0.0.1:1/f' })).resp.statusCode).toBe(
      200,
    );
    expect((await bm.getBucketEvent('pub')).data).toMatchObject([{ name: 'ev1', event: 'put', callbackURL: 'http://127.0.0.1:1/f' }]);
    expect((await bm.deleteBucketEvent('pub', 'ev1')).resp.statusCode).toBe(200);
    const cors = [{ allowed_origin: ['*'], allowed_method: ['GET'] }];
    expect((await bm.putCorsRules('pub', cors)).resp.statusCode).toBe(200);
    expect((await bm.getCorsRules('pub')).data).toEqual(cors);
    expect((await bm.putReferAntiLeech('pub', { mode: 2, pattern: '*.blocked.test' } as never)).resp.statusCode).toBe(200);
    expect((await bm.putBucketAccessStyleMode('pub', 1)).resp.statusCode).toBe(200);
    expect((await bm.putBucketMaxAge('pub', { maxAge: 600 })).resp.statusCode).toBe(200);
    expect((await bm.putBucketQuota('pub', { size: 1024, count: 10 })).resp.statusCode).toBe(200);
    expect((await bm.getBucketQuota('pub')).data).toEqual({ size: 1024, count: 10 });
    expect((await bm.getBucketQuota('nope')).resp.statusCode).toBe(631);
  });

  it('quota, max-age, CORS and referer rules take effect', async () => {
    const form = new qiniu.form_up.FormUploader(env.config);
    const put = (key: string, data: string) => form.put(uploadToken({ scope: 'priv' }), key, data, new qiniu.form_up.PutExtra());
    await bm.putBucketQuota('priv', { count: 2, size: 0 });
    expect((await put('q1', 'a')).resp.statusCode).toBe(200);
    expect((await put('q2', 'b')).resp.statusCode).toBe(200);
    const over = await put('q3', 'c');
    expect(over.resp.statusCode).toBe(403);
    expect(over.data.error).toMatch(/quota/);
    await bm.putBucketQuota('priv', { count: 0, size: 0 });
    expect((await put('q3', 'c')).resp.statusCode).toBe(200);

    await form.put(uploadToken({ scope: 'pub' }), 'web.txt', 'web', new qiniu.form_up.PutExtra());
    await bm.putBucketMaxAge('pub', { maxAge: 600 });
    await bm.putCorsRules('pub', [{ allowed_origin: ['http://*.example.com'], allowed_method: ['GET'], max_age: 60 }]);
    const withOrigin = await httpGet(env.emulator.port, '/web.txt', { Host: 'pub.test', Origin: 'http://app.example.com' });
    expect(withOrigin.headers.get('cache-control')).toBe('public, max-age=600');
    expect(withOrigin.headers.get('access-control-allow-origin')).toBe('http://app.example.com');
    expect(
      (await httpGet(env.emulator.port, '/web.txt', { Host: 'pub.test', Origin: 'http://evil.test' })).headers.get(
        'access-control-allow-origin',
      ),
    ).toBeNull();

    await bm.putReferAntiLeech('pub', { mode: 1, pattern: '*.example.com', norefer: 0 } as never);
    expect((await httpGet(env.emulator.port, '/web.txt', { Host: 'pub.test', Referer: 'http://www.example.com/page' })).status).toBe(200);
    expect((await httpGet(env.emulator.port, '/web.txt', { Host: 'pub.test', Referer: 'http://other.test/' })).status).toBe(403);
    expect((await httpGet(env.emulator.port, '/web.txt', { Host: 'pub.test' })).status).toBe(403);
    await bm.putReferAntiLeech('pub', { mode: 0 } as never);
    expect((await httpGet(env.emulator.port, '/web.txt', { Host: 'pub.test' })).status).toBe(200);
  });

  it('putBucketAccessMode makes a bucket private for downloads', async () => {
    await new qiniu.form_up.FormUploader(env.config).put(uploadToken({ scope: 'pub' }), 'open.txt', 'open', new qiniu.form_up.PutExtra());
    expect((await httpGet(env.emulator.port, '/open.txt', { Host: 'pub.test' })).status).toBe(200);
    expect((await bm.putBucketAccessMode('pub', { private: 1 })).resp.statusCode).toBe(200);
    expect((await httpGet(env.emulator.port, '/open.txt', { Host: 'pub.test' })).status).toBe(401);
    expect((await bm.getBucketInfo('pub')).data).toMatchObject({ private: 1 });
    await bm.putBucketAccessMode('pub', { private: 0 });
  });
});
