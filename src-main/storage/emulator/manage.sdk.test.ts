import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import qiniu from 'qiniu';
import { hmacSha1B64, kodoEtag } from './encoding';
import { AK2, SK2, httpGet, startRecorder, startTestEmulator, uploadToken, type Recorder, type TestEmulator } from './test-support';

let env: TestEmulator;
let origin: Recorder;
let bm: qiniu.rs.BucketManager;

beforeAll(async () => {
  origin = await startRecorder((req) =>
    req.url === '/missing' ? { status: 404, body: 'no' } : { status: 200, body: `origin:${req.url}`, type: 'text/plain' },
  );
  env = await startTestEmulator({ mirror: origin.url });
  bm = new qiniu.rs.BucketManager(env.mac, env.config);
});

afterAll(async () => {
  await env.close();
  await origin.close();
});

async function put(bucket: string, key: string, data: string): Promise<void> {
  const result = await new qiniu.form_up.FormUploader(env.config).put(
    uploadToken({ scope: `${bucket}:${key}` }),
    key,
    data,
    new qiniu.form_up.PutExtra(),
  );
  expect(result.resp.statusCode).toBe(200);
}

describe('BucketManager against the emulator', () => {
  it('stat, changeMime, changeType, changeStatus-free fields', async () => {
    await put('pub', 'a.txt', 'alpha');
    const stat = await bm.stat('pub', 'a.txt');
    expect(stat.resp.statusCode).toBe(200);
    expect(stat.data).toMatchObject({ fsize: 5, hash: kodoEtag(Buffer.from('alpha')), mimeType: 'text/plain', type: 0 });
    expect(stat.data.putTime).toBeGreaterThan(Date.now() * 10_000 - 600_000_000);
    expect((await bm.changeMime('pub', 'a.txt', 'application/x-test')).resp.statusCode).toBe(200);
    expect((await bm.changeType('pub', 'a.txt', 2)).resp.statusCode).toBe(200);
    expect((await bm.stat('pub', 'a.txt')).data).toMatchObject({ mimeType: 'application/x-test', type: 2 });
    const missing = await bm.stat('pub', 'nope');
    expect(missing.resp.statusCode).toBe(612);
    expect(missing.data).toEqual({ error: 'no such file or directory' });
  });

  it('copy and move, with and without force', async () => {
    await put('pub', 'src.txt', 'source');
    await put('pub', 'taken.txt', 'taken');
    expect((await bm.copy('pub', 'src.txt', 'pub', 'copy.txt', {})).resp.statusCode).toBe(200);
    expect((await bm.copy('pub', 'src.txt', 'pub', 'taken.txt', {})).resp.statusCode).toBe(614);
    expect((await bm.copy('pub', 'src.txt', 'pub', 'taken.txt', { force: true })).resp.statusCode).toBe(200);
    expect((await httpGet(env.emulator.port, '/download/pub/taken.txt')).body.toString()).toBe('source');
    expect((await bm.move('pub', 'copy.txt', 'priv', 'moved.txt', {})).resp.statusCode).toBe(200);
    expect((await bm.stat('pub', 'copy.txt')).resp.statusCode).toBe(612);
    expect((await bm.stat('priv', 'moved.txt')).data).toMatchObject({ fsize: 6 });
    expect((await bm.stat('pub', 'src.txt')).resp.statusCode).toBe(200);
  });

  it('delete, and an unknown bucket is 631', async () => {
    await put('pub', 'del.txt', 'x');
    expect((await bm.delete('pub', 'del.txt')).resp.statusCode).toBe(200);
    expect((await bm.delete('pub', 'del.txt')).resp.statusCode).toBe(612);
    expect((await bm.stat('nobucket', 'x')).resp.statusCode).toBe(631);
  });

  it("another account's bucket looks absent", async () => {
    const other = new qiniu.rs.BucketManager(new qiniu.auth.digest.Mac(AK2, SK2), env.config);
    expect((await other.stat('pub', 'a.txt')).resp.statusCode).toBe(631);
  });

  it('wrong secret → 401; X-Qiniu-Date far from the server clock → 403', async () => {
    const bad = new qiniu.rs.BucketManager(new qiniu.auth.digest.Mac(env.mac.accessKey, 'wrong'), env.config);
    expect((await bad.stat('pub', 'a.txt')).resp.statusCode).toBe(401);
    env.shift(2 * 3600_000);
    try {
      const skewed = await bm.stat('pub', 'a.txt');
      expect(skewed.resp.statusCode).toBe(403);
    } finally {
      env.shift(0);
    }
    const legacy = new qiniu.rs.BucketManager(
      new qiniu.auth.digest.Mac(env.mac.accessKey, env.mac.secretKey, { disableQiniuTimestampSignature: true }),
      env.config,
    );
    expect((await legacy.stat('pub', 'a.txt')).resp.statusCode).toBe(200);
  });

  it('Qiniu v2 signed with the host written once (as the PHP SDK does) is accepted too', async () => {
    const path = `/stat/${Buffer.from('pub:a.txt').toString('base64').replace(/\+/g, '-').replace(/\//g, '_')}`;
    const date = new Date()
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    const signed = `GET ${path}\nHost: ${env.host}\nContent-Type: application/x-www-form-urlencoded\nX-Qiniu-Date: ${date}\n\n`;
    const sign = hmacSha1B64(env.mac.secretKey, signed);
    const ok = await fetch(`http://${env.host}${path}`, {
      headers: {
        Authorization: `Qiniu ${env.mac.accessKey}:${sign}`,
        'X-Qiniu-Date': date,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
    });
    expect(ok.status).toBe(200);
    const bad = await fetch(`http://${env.host}${path}`, {
      headers: { Authorization: `Qiniu ${env.mac.accessKey}:${sign}x`, 'X-Qiniu-Date': date },
    });
    expect(bad.status).toBe(401);
  });

  it('deleteAfterDays: the object really expires', async () => {
    await put('pub', 'temp.txt', 'short-lived');
    expect((await bm.deleteAfterDays('pub', 'temp.txt', 1)).resp.statusCode).toBe(200);
    expect((await bm.stat('pub', 'temp.txt')).data.expiration).toBeGreaterThan(Date.now() / 1000);
    env.shift(2 * 86_400_000);
    try {
      await env.emulator.sweep();
    } finally {
      env.shift(0);
    }
    expect((await bm.stat('pub', 'temp.txt')).resp.statusCode).toBe(612);
  });

  it('listPrefix: prefix, delimiter, limit and marker', async () => {
    for (const key of ['l/1.txt', 'l/2.txt', 'l/3.txt', 'l/d1/x.txt', 'l/d1/y.txt', 'l/d2/z.txt']) await put('pub', key, key);
    const page1 = await bm.listPrefix('pub', { prefix: 'l/', limit: 2 });
    expect(page1.data.items.map((i: { key: string }) => i.key)).toEqual(['l/1.txt', 'l/2.txt']);
    expect(page1.data.marker).toBeTruthy();
    const page2 = await bm.listPrefix('pub', { prefix: 'l/', limit: 10, marker: page1.data.marker });
    expect(page2.data.items.map((i: { key: string }) => i.key)).toEqual(['l/3.txt', 'l/d1/x.txt', 'l/d1/y.txt', 'l/d2/z.txt']);
    expect(page2.data.marker).toBeUndefined();
    const dirs = await bm.listPrefix('pub', { prefix: 'l/', delimiter: '/' });
    expect(dirs.data.items.map((i: { key: string }) => i.key)).toEqual(['l/1.txt', 'l/2.txt', 'l/3.txt']);
    expect(dirs.data.commonPrefixes).toEqual(['l/d1/', 'l/d2/']);
    expect((await bm.listPrefix('pub', { marker: 'garbage!' })).resp.statusCode).toBe(640);
  });

  it('listPrefixV2 streams one JSON line per entry', async () => {
    const result = await bm.listPrefixV2('pub', { prefix: 'l/', delimiter: '/' });
    const lines = String(result.data)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { item: { key: string } | null; dir: string });
    expect(lines.map((l) => l.item?.key ?? l.dir)).toEqual(['l/1.txt', 'l/2.txt', 'l/3.txt', 'l/d1/', 'l/d2/']);
  });

  it('batch: results per op, 298 on partial success, at most 1000 ops', async () => {
    await put('pub', 'b1.txt', 'one');
    const ops = [
      qiniu.rs.statOp('pub', 'b1.txt'),
      qiniu.rs.statOp('pub', 'nope.txt'),
      qiniu.rs.copyOp('pub', 'b1.txt', 'pub', 'b2.txt'),
      qiniu.rs.changeMimeOp('pub', 'b2.txt', 'text/x'),
      qiniu.rs.changeTypeOp('pub', 'b2.txt', 1),
      qiniu.rs.deleteAfterDaysOp('pub', 'b2.txt', 3),
      qiniu.rs.moveOp('pub', 'b2.txt', 'pub', 'b3.txt'),
      qiniu.rs.deleteOp('pub', 'b3.txt'),
    ];
    const result = await bm.batch(ops);
    expect(result.resp.statusCode).toBe(298);
    expect(result.data.map((r: { code: number }) => r.code)).toEqual([200, 612, 200, 200, 200, 200, 200, 200]);
    expect(result.data[0].data).toMatchObject({ fsize: 3 });
    expect(result.data[1].data).toEqual({ error: 'no such file or directory' });
    const ok = await bm.batch([qiniu.rs.statOp('pub', 'b1.txt')]);
    expect(ok.resp.statusCode).toBe(200);
    const tooMany = await bm.batch(Array.from({ length: 1001 }, () => qiniu.rs.statOp('pub', 'b1.txt')));
    expect(tooMany.resp.statusCode).toBe(400);
  });

  it('fetch from a URL and prefetch from the mirror', async () => {
    const fetched = await bm.fetch(`${origin.url}/some/file.txt`, 'pub', 'fetched.txt');
    expect(fetched.resp.statusCode).toBe(200);
    expect(fetched.data).toMatchObject({
      key: 'fetched.txt',
      fsize: 'origin:/some/file.txt'.length,
      hash: kodoEtag(Buffer.from('origin:/some/file.txt')),
    });
    expect((await bm.prefetch('mirrored', 'm/a.txt')).resp.statusCode).toBe(200);
    expect((await httpGet(env.emulator.port, '/download/mirrored/m/a.txt')).body.toString()).toBe('origin:/m/a.txt');
    // a miss on a mirror bucket download is filled from the origin too
    expect((await httpGet(env.emulator.port, '/m/b.txt', { Host: 'mirror.test' })).body.toString()).toBe('origin:/m/b.txt');
    expect((await bm.prefetch('pub', 'x')).resp.statusCode).toBe(400);
  });

  it('changeHeaders, updateObjectStatus, setObjectLifeCycle, restoreAr', async () => {
    await put('pub', 'h.txt', 'headers');
    expect((await bm.changeHeaders('pub', 'h.txt', { color: 'blue' })).resp.statusCode).toBe(200);
    expect((await bm.updateObjectStatus('pub', 'h.txt', 1)).resp.statusCode).toBe(200);
    const stat = await bm.stat('pub', 'h.txt');
    expect(stat.data).toMatchObject({ status: 1, 'x-qn-meta': { '!color': 'blue' } });
    // Every reply names its request and service, as Kodo's do.
    expect(stat.resp.headers['x-reqid']).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(stat.resp.headers['x-log']).toBe('RS');
    const meta = await httpGet(env.emulator.port, '/h.txt?attname=', { Host: 'pub.test' });
    expect(meta.headers.get('x-qn-meta-!color')).toBe('blue');
    expect(meta.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''h.txt");
    expect(
      (await bm.setObjectLifeCycle('pub', 'h.txt', { toIaAfterDays: 10, toArchiveAfterDays: 40, deleteAfterDays: 60 })).resp.statusCode,
    ).toBe(200);
    const day = 86_400;
    const nowS = Date.now() / 1000;
    const withLifecycle = (await bm.stat('pub', 'h.txt')).data;
    expect(withLifecycle.expiration).toBeGreaterThan(nowS + 59 * day);
    expect(withLifecycle.transitionToIA).toBeGreaterThan(nowS + 9 * day);
    expect(withLifecycle.transitionToIA).toBeLessThan(nowS + 11 * day);
    expect(withLifecycle.transitionToARCHIVE).toBeGreaterThan(nowS + 39 * day);
    expect(withLifecycle).not.toHaveProperty('transitionToDeepArchive');
    // 0 leaves a setting, -1 removes it.
    await bm.setObjectLifeCycle('pub', 'h.txt', { toIaAfterDays: -1, toArchiveAfterDays: 0 });
    const changed = (await bm.stat('pub', 'h.txt')).data;
    expect(changed).not.toHaveProperty('transitionToIA');
    expect(changed.transitionToARCHIVE).toBe(withLifecycle.transitionToARCHIVE);
    // An enabled file has no status in stat.
    await bm.updateObjectStatus('pub', 'h.txt', 0);
    expect((await bm.stat('pub', 'h.txt')).data).not.toHaveProperty('status');
    expect((await bm.restoreAr('pub:h.txt', 1)).resp.statusCode).toBe(400);
    await bm.changeType('pub', 'h.txt', 2);
    expect((await bm.stat('pub', 'h.txt')).data).not.toHaveProperty('restoreStatus');
    expect((await bm.restoreAr('pub:h.txt', 1)).resp.statusCode).toBe(200);
    expect((await bm.stat('pub', 'h.txt')).data).toMatchObject({ type: 2, restoreStatus: 2 });
    expect((await bm.restoreAr('pub:h.txt', 9)).resp.statusCode).toBe(400);
  });

  it('stat reports the transitions of the bucket rules whose prefix the key has', async () => {
    expect(
      (await bm.putBucketLifecycleRule('pub', { name: 'logs-ia', prefix: 'logs/', to_line_after_days: 30, delete_after_days: 365 })).resp
        .statusCode,
    ).toBe(200);
    await put('pub', 'logs/a.txt', 'log');
    await put('pub', 'other.txt', 'other');
    const logs = (await bm.stat('pub', 'logs/a.txt')).data;
    const putS = logs.putTime / 10_000_000;
    expect(logs.transitionToIA).toBe(Math.floor(putS + 30 * 86_400));
    expect(logs.expiration).toBe(Math.floor(putS + 365 * 86_400));
    expect((await bm.stat('pub', 'other.txt')).data).not.toHaveProperty('transitionToIA');
    await bm.deleteBucketLifecycleRule('pub', 'logs-ia');
  });

  it('image/unimage set and clear the mirror source', async () => {
    expect((await bm.image('pub', origin.url)).resp.statusCode).toBe(200);
    expect((await httpGet(env.emulator.port, '/from-origin.txt', { Host: 'pub.test' })).body.toString()).toBe('origin:/from-origin.txt');
    expect((await bm.unimage('pub')).resp.statusCode).toBe(200);
    expect((await httpGet(env.emulator.port, '/not-there.txt', { Host: 'pub.test' })).status).toBe(404);
  });

  it('bucket listing, domains and info', async () => {
    expect((await bm.listBucket()).data).toEqual(['fast', 'leech', 'mirrored', 'priv', 'pub']);
    expect((await bm.listBucketDomains('priv')).data).toMatchObject([{ domain: 'priv.test', tbl: 'priv' }]);
    expect((await bm.getBucketInfo('priv')).data).toMatchObject({ private: 1 });
    expect((await bm.createBucket('made', { regionId: 'z0' })).resp.statusCode).toBe(200);
    expect((await bm.deleteBucket('made')).resp.statusCode).toBe(200);
  });

  it('/v4/query lets an SDK with only a UC endpoint find every host', async () => {
    const { StaticEndpointsProvider, Endpoint } = qiniu.httpc;
    const config = new qiniu.conf.Config({
      ucEndpointsProvider: new StaticEndpointsProvider([new Endpoint(env.host, { defaultScheme: 'http' })]),
      regionsQueryResultCachePath: null,
    } as never);
    const viaQuery = new qiniu.rs.BucketManager(env.mac, config);
    expect((await viaQuery.stat('pub', 'a.txt')).resp.statusCode).toBe(200);
    const upload = await new qiniu.form_up.FormUploader(config).put(
      uploadToken({ scope: 'pub:q.txt' }),
      'q.txt',
      'via query',
      new qiniu.form_up.PutExtra(),
    );
    expect(upload.resp.statusCode).toBe(200);
    expect((await httpGet(env.emulator.port, `/v4/query?ak=${env.mac.accessKey}&bucket=nope`)).status).toBe(631);
  });

  it('/v4/query names the accelerated upload host of a bucket that has one', async () => {
    const query = async (bucket: string) =>
      JSON.parse((await httpGet(env.emulator.port, `/v4/query?ak=${env.mac.accessKey}&bucket=${bucket}`)).body.toString()).hosts[0].up;
    expect(await query('fast')).toMatchObject({ acc_domains: ['fast.kodo-accelerate.cn-east-1.qiniucs.com'] });
    expect(await query('pub')).not.toHaveProperty('acc_domains');
  });
});

describe('downloads', () => {
  it('routes by Host to the bucket owning the domain, with Range', async () => {
    await put('pub', 'r.txt', '0123456789');
    const whole = await httpGet(env.emulator.port, '/r.txt', { Host: 'pub.test' });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('text/plain');
    const part = await httpGet(env.emulator.port, '/r.txt', { Host: 'pub.test', Range: 'bytes=2-5' });
    expect(part.status).toBe(206);
    expect(part.body.toString()).toBe('2345');
    expect(part.headers.get('content-range')).toBe('bytes 2-5/10');
    expect((await httpGet(env.emulator.port, '/r.txt', { Host: 'pub.test', Range: 'bytes=-3' })).body.toString()).toBe('789');
    expect((await httpGet(env.emulator.port, '/r.txt', { Host: 'pub.test', Range: 'bytes=20-' })).status).toBe(416);
  });

  it('private buckets need e/token from privateDownloadUrl; expired → 401', async () => {
    await put('priv', 'secret.txt', 'top secret');
    const deadline = Math.floor(Date.now() / 1000) + 3600;
    const signed = new URL(bm.privateDownloadUrl('http://priv.test', 'secret.txt', deadline));
    const ok = await httpGet(env.emulator.port, signed.pathname + signed.search, { Host: 'priv.test' });
    expect(ok.status).toBe(200);
    expect(ok.body.toString()).toBe('top secret');
    expect((await httpGet(env.emulator.port, '/secret.txt', { Host: 'priv.test' })).status).toBe(401);
    const old = new URL(bm.privateDownloadUrl('http://priv.test', 'secret.txt', Math.floor(Date.now() / 1000) - 10));
    const expired = await httpGet(env.emulator.port, old.pathname + old.search, { Host: 'priv.test' });
    expect(expired.status).toBe(401);
    expect(JSON.parse(expired.body.toString())).toEqual({ error: 'token out of date' });
    const tampered = await httpGet(env.emulator.port, signed.pathname.replace('secret', 'secreT') + signed.search, { Host: 'priv.test' });
    expect(tampered.status).toBe(401);
  });

  it('timestamp anti-leech links from createTimestampAntiLeechUrl', async () => {
    await put('leech', 'v.txt', 'guarded');
    const cdn = new qiniu.cdn.CdnManager(env.mac);
    const link = new URL(
      cdn.createTimestampAntiLeechUrl('http://leech.test', 'v.txt', null, 'encryptKey', Math.floor(Date.now() / 1000) + 60),
    );
    expect((await httpGet(env.emulator.port, link.pathname + link.search, { Host: 'leech.test' })).body.toString()).toBe('guarded');
    expect((await httpGet(env.emulator.port, '/v.txt', { Host: 'leech.test' })).status).toBe(403);
    const late = new URL(
      cdn.createTimestampAntiLeechUrl('http://leech.test', 'v.txt', null, 'encryptKey', Math.floor(Date.now() / 1000) - 60),
    );
    expect((await httpGet(env.emulator.port, late.pathname + late.search, { Host: 'leech.test' })).status).toBe(403);
  });
});
