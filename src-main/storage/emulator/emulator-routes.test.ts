import qiniu from 'qiniu';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, uploadToken, type TestEmulator } from './test-support';

/** Which route answers a Kodo path and method, and how a path or method the emulator has not is refused. */
describe('storage emulator routes', () => {
  let env: TestEmulator;
  beforeAll(async () => {
    env = await startTestEmulator();
    await new qiniu.form_up.FormUploader(env.config).put(
      uploadToken({ scope: 'pub' }),
      'routed.txt',
      'routed',
      new qiniu.form_up.PutExtra(),
    );
  });
  afterAll(async () => env?.close());

  const entry = qiniu.util.encodedEntry('pub', 'routed.txt');
  /** A call as sent, QBox-signed over the path as written unless `signed` is false. */
  const call = async (method: string, path: string, { signed = true, body }: { signed?: boolean; body?: string } = {}) => {
    const url = `http://${env.host}${path}`;
    const response = await fetch(url, {
      method,
      ...(body !== undefined ? { body } : {}),
      headers: signed ? { Authorization: qiniu.util.generateAccessToken(env.mac, url) } : {},
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  };

  it('reads paths with empty segments as Kodo does, and downloads by path', async () => {
    expect(await call('POST', `//stat//${entry}/`)).toMatchObject({ status: 200, body: { fsize: 6 } });
    expect(await (await fetch(`http://${env.host}/download/pub/routed.txt`)).text()).toBe('routed');
  });

  it('answers a path it has not, or a method its route does not take, as an unknown API', async () => {
    expect(await call('GET', '/nothing/here', { signed: false })).toEqual({
      status: 404,
      body: { error: 'no such API: GET /nothing/here' },
    });
    expect(await call('POST', '/v4/query?ak=test-access-key&bucket=pub', { signed: false })).toEqual({
      status: 404,
      body: { error: 'no such API: POST /v4/query' },
    });
    expect(await call('POST', '/download/pub/routed.txt', { signed: false })).toEqual({
      status: 404,
      body: { error: 'no such API: POST /download/pub/routed.txt' },
    });
    expect(await call('PUT', '/', { signed: false })).toEqual({ status: 405, body: { error: 'only allowed POST method' } });
  });

  it('checks the account signature before a management call is run or its method judged', async () => {
    expect((await call('POST', `/stat/${entry}`, { signed: false })).status).toBe(401);
    expect((await call('DELETE', '/sisyphus/fetch', { signed: false })).status).toBe(401);
    expect(await call('DELETE', '/sisyphus/fetch')).toEqual({ status: 405, body: { error: '/sisyphus/fetch does not take DELETE' } });
    expect(await call('PATCH', '/bucketTagging?bucket=pub')).toEqual({ status: 405, body: { error: 'bucketTagging does not take PATCH' } });
  });

  it('takes Kodo’s name/value segments after an entry, and says which shape a call expects', async () => {
    const copied = qiniu.util.encodedEntry('pub', 'copied.txt');
    expect((await call('POST', `/copy/${entry}/${copied}/force/true`)).status).toBe(200);
    expect(await call('POST', `/stat/${copied}`)).toMatchObject({ status: 200, body: { fsize: 6 } });
    expect(await call('POST', '/mkbucketv3/newbucket/zone/z1')).toEqual({
      status: 400,
      body: { error: 'mkbucketv3: expected /mkbucketv3/<bucket>/region/<region>' },
    });
    expect(await call('POST', '/image/pub/to/aHR0cDovL3g')).toEqual({
      status: 400,
      body: { error: 'image: expected /image/<bucket>/from/<urlsafeB64(http(s) origin)>' },
    });
    expect(await call('POST', '/unpublish')).toEqual({
      status: 400,
      body: { error: 'unpublish: expected /unpublish/<urlsafe base64 domain>' },
    });
    expect(await call('POST', '/v2/tune/nothing', { body: '{}' })).toEqual({ status: 404, body: { error: 'no such CDN API nothing' } });
  });
});
