import { createHash } from 'node:crypto';
import qiniu from 'qiniu';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../../test-support/time';
import { startRecorder, startTestEmulator, uploadToken, type Recorder, type TestEmulator } from './test-support';

// Asynchronous fetch (/sisyphus/fetch), bucket event notifications and the CDN task lists,
// with a real HTTP source and real callback receivers on loopback.
let env: TestEmulator;
let bm: qiniu.rs.BucketManager;
let source: Recorder;
let receiver: Recorder;
const SOURCE_BODY = Buffer.from('fetched from the source\n');

/** A Qiniu-signed (v2) JSON call, as the SDKs send /sisyphus/fetch and fusion calls. */
async function signed(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const url = `http://${env.host}${path}`;
  const text = body === undefined ? '' : JSON.stringify(body);
  const contentType = body === undefined ? 'application/x-www-form-urlencoded' : 'application/json';
  const authorization = qiniu.util.generateAccessTokenV2(env.mac, url, method, contentType, text, {});
  const response = await fetch(url, {
    method,
    headers: { Authorization: authorization, 'Content-Type': contentType },
    ...(body === undefined ? {} : { body: text }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  env = await startTestEmulator();
  bm = new qiniu.rs.BucketManager(env.mac, env.config);
  source = await startRecorder((req) =>
    req.url === '/clip.txt' ? { status: 200, body: SOURCE_BODY, type: 'text/plain' } : { status: 404, body: 'no' },
  );
  receiver = await startRecorder(() => ({ status: 200, body: '{"ok":true}' }));
});
afterAll(async () => {
  await env.close();
  await source.close();
  await receiver.close();
});

describe('/sisyphus/fetch', () => {
  it('queues a fetch, stores the object, answers wait -1 when done and calls back', async () => {
    const md5 = createHash('md5').update(SOURCE_BODY).digest('hex');
    const started = await signed('POST', '/sisyphus/fetch', {
      url: `http://127.0.0.1:1/nothing;${source.url}/clip.txt`,
      bucket: 'pub',
      key: 'fetched/clip.txt',
      md5,
      callbackurl: `${receiver.url}/fetched`,
      callbackbody: 'key=$(key)&fsize=$(fsize)',
    });
    expect(started.status).toBe(200);
    expect(started.json).toEqual({ id: expect.any(String), wait: expect.any(Number) });
    await waitUntil(async () => (await signed('GET', `/sisyphus/fetch?id=${started.json.id}`)).json.wait === -1, {
      what: 'the fetch to finish',
    });
    const stat = await bm.stat('pub', 'fetched/clip.txt');
    expect(stat.data).toMatchObject({ fsize: SOURCE_BODY.length, mimeType: 'text/plain', md5 });
    const call = await waitUntil(() => receiver.requests.find((r) => r.url === '/fetched'), { what: 'the callback' });
    expect(call.body.toString()).toBe(`key=fetched%2Fclip.txt&fsize=${SOURCE_BODY.length}`);
    expect(call.headers.authorization).toMatch(/^QBox /);
  });

  it('keeps nothing when the content does not match the md5 given; refuses bad jobs', async () => {
    const started = await signed('POST', '/sisyphus/fetch', {
      url: `${source.url}/clip.txt`,
      bucket: 'pub',
      key: 'fetched/wrong.txt',
      md5: '0'.repeat(32),
    });
    await waitUntil(async () => (await signed('GET', `/sisyphus/fetch?id=${started.json.id}`)).json.wait === -1, {
      what: 'the fetch to finish',
    });
    expect((await bm.stat('pub', 'fetched/wrong.txt')).resp.statusCode).toBe(612);
    expect((await signed('POST', '/sisyphus/fetch', { url: 'ftp://x/y', bucket: 'pub' })).status).toBe(400);
    expect((await signed('POST', '/sisyphus/fetch', { url: `${source.url}/clip.txt`, bucket: 'nobody' })).status).toBe(631);
    expect((await signed('GET', '/sisyphus/fetch?id=unknown')).status).toBe(612);
  });
});

describe('bucket event notifications', () => {
  it('delivers the events a rule asks for, by prefix and suffix, in Kodo message form', async () => {
    const put = await bm.putBucketEvent('pub', {
      name: 'photos',
      event: ['put', 'copy', 'delete', 'disable'],
      prefix: 'photos/',
      suffix: '.jpg',
      callbackURL: `${receiver.url}/events`,
    });
    expect(put.resp.statusCode).toBe(200);
    const form = new qiniu.form_up.FormUploader(env.config);
    await form.put(uploadToken({ scope: 'pub' }), 'photos/a.jpg', 'jpeg bytes', new qiniu.form_up.PutExtra());
    await form.put(uploadToken({ scope: 'pub' }), 'photos/a.txt', 'not matched', new qiniu.form_up.PutExtra());
    await form.put(uploadToken({ scope: 'pub' }), 'other/b.jpg', 'not matched', new qiniu.form_up.PutExtra());
    await bm.copy('pub', 'photos/a.jpg', 'pub', 'photos/b.jpg', {});
    await bm.updateObjectStatus('pub', 'photos/b.jpg', 1);
    await bm.delete('pub', 'photos/a.jpg');
    await env.emulator.idle();
    const messages = receiver.requests
      .filter((r) => r.url === '/events')
      .map((r) => {
        const outer = JSON.parse(r.body.toString()) as { Message: string; Subject: string; Timestamp: string };
        expect(outer.Subject).toBe('Qiniu KODO Notification');
        expect(Date.parse(outer.Timestamp)).not.toBeNaN();
        return JSON.parse(outer.Message) as Record<string, unknown>;
      });
    expect(messages.map((m) => [m.event, m.key, m.dest_key ?? null])).toEqual([
      ['put', 'photos/a.jpg', null],
      ['copy', 'photos/a.jpg', 'photos/b.jpg'],
      ['disable', 'photos/b.jpg', null],
      ['delete', 'photos/a.jpg', null],
    ]);
    expect(messages[0]).toMatchObject({
      bucket: 'pub',
      fsize: 10,
      mimetype: expect.any(String),
      hash: expect.any(String),
      access_key: env.mac.accessKey,
    });
    expect(typeof messages[0]!.time).toBe('number');
  });
});

describe('CDN task lists', () => {
  it('lists the refresh and prefetch tasks of the account, filtered and paged', async () => {
    await new qiniu.form_up.FormUploader(env.config).put(uploadToken({ scope: 'pub' }), 'cdn/a.png', 'png', new qiniu.form_up.PutExtra());
    const refreshed = await signed('POST', '/v2/tune/refresh', { urls: ['http://pub.test/cdn/a.png', 'http://pub.test/cdn/b.png'] });
    expect(refreshed.json.code).toBe(200);
    const prefetched = await signed('POST', '/v2/tune/prefetch', { urls: ['http://pub.test/cdn/a.png'] });
    expect(prefetched.json.code).toBe(200);

    const refreshList = await signed('POST', '/v2/tune/refresh/list', { state: 'success', pageSize: 1 });
    expect(refreshList.json).toMatchObject({ code: 200, pageNo: 0, pageSize: 1, total: 2 });
    const items = refreshList.json.items as {
      taskId: string;
      url: string;
      state: string;
      progress: number;
      isDir: string;
      createAt: string;
    }[];
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ state: 'success', progress: 100, isDir: 'no' });
    expect(items[0]!.createAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(Object.values(refreshed.json.taskIds as Record<string, string>)).toContain(items[0]!.taskId);

    const byUrl = await signed('POST', '/v2/tune/refresh/list', { urls: ['http://pub.test/cdn/b.png'] });
    expect((byUrl.json.items as { url: string }[]).map((i) => i.url)).toEqual(['http://pub.test/cdn/b.png']);
    expect(((await signed('POST', '/v2/tune/refresh/list', { state: 'failure' })).json.items as unknown[]).length).toBe(0);
    const prefetchList = await signed('POST', '/v2/tune/prefetch/list', { requestId: prefetched.json.requestId });
    expect((prefetchList.json.items as { url: string }[]).map((i) => i.url)).toEqual(['http://pub.test/cdn/a.png']);
    expect((await signed('POST', '/v2/tune/refresh/list', { pageSize: 1000 })).status).toBe(400);
  });
});
