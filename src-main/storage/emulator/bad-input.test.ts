import qiniu from 'qiniu';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hmacSha1B64, urlsafeB64Encode } from './encoding';
import { startTestEmulator, uploadToken, type TestEmulator } from './test-support';

/** What Kodo answers to malformed or unsigned requests: a 4xx with a reason, and nothing stored. */
describe('storage emulator: bad input', () => {
  let env: TestEmulator;
  beforeAll(async () => {
    env = await startTestEmulator();
  });
  afterAll(async () => env?.close());

  const entry = (bucket: string, key: string) => urlsafeB64Encode(`${bucket}:${key}`);
  const qbox = (pathAndQuery: string, signedBody: string) =>
    `QBox ${env.mac.accessKey}:${hmacSha1B64(env.mac.secretKey, `${pathAndQuery}\n${signedBody}`)}`;

  it('mkfile with a malformed % escape in a parameter name: 400, not 599', async () => {
    const token = uploadToken({ scope: 'pub' });
    const response = await fetch(`http://${env.host}/mkfile/3/key/${urlsafeB64Encode('x.txt')}/x%ZZ/${urlsafeB64Encode('v')}`, {
      method: 'POST',
      headers: { Authorization: `UpToken ${token}`, 'Content-Type': 'text/plain' },
      body: '',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/malformed percent escape/);
  });

  it('an upload whose Content-Type is not printable ASCII is refused at upload, not stored undownloadable', async () => {
    // FormData cannot carry a non-ASCII part type, so the multipart body is written out by hand.
    const boundary = 'kodoBoundary1234';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${uploadToken({ scope: 'pub' })}\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="key"\r\n\r\nweird.txt\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="weird.txt"\r\nContent-Type: `),
      Buffer.from('text/plain; charset=\u043a\u043e\u0438', 'utf8'),
      Buffer.from(`\r\n\r\nhello\r\n--${boundary}--\r\n`),
    ]);
    const response = await fetch(`http://${env.host}/`, {
      method: 'POST',
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/invalid mimeType/);
    const bm = new qiniu.rs.BucketManager(env.mac, env.config);
    expect((await bm.stat('pub', 'weird.txt')).resp.statusCode).toBe(612);
  });

  it('/v2/list with an invalid marker answers 640 before any listing, as /list does', async () => {
    const path = `/v2/list?bucket=pub&marker=not-a-marker`;
    const response = await fetch(`http://${env.host}${path}`, { headers: { Authorization: qbox(path, '') } });
    expect(response.status).toBe(640);
    expect(((await response.json()) as { error: string }).error).toBe('invalid marker');
  });

  it('a QBox signature covers the form body: a /batch with a body it did not sign is refused', async () => {
    const bm = new qiniu.rs.BucketManager(env.mac, env.config);
    const putter = new qiniu.form_up.FormUploader(env.config);
    await putter.put(uploadToken({ scope: 'pub' }), 'keep.txt', 'keep me', new qiniu.form_up.PutExtra());
    const signedFor = `op=/stat/${entry('pub', 'keep.txt')}`;
    const sent = `op=/delete/${entry('pub', 'keep.txt')}`;
    const forged = await fetch(`http://${env.host}/batch`, {
      method: 'POST',
      headers: { Authorization: qbox('/batch', signedFor), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: sent,
    });
    expect(forged.status).toBe(401);
    // Unsigned body (the token of an empty body) is refused too.
    const unsigned = await fetch(`http://${env.host}/batch`, {
      method: 'POST',
      headers: { Authorization: qbox('/batch', ''), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: sent,
    });
    expect(unsigned.status).toBe(401);
    expect((await bm.stat('pub', 'keep.txt')).resp.statusCode).toBe(200);
    // Signed as sent: it runs.
    const signed = await fetch(`http://${env.host}/batch`, {
      method: 'POST',
      headers: { Authorization: qbox('/batch', signedFor), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: signedFor,
    });
    expect(signed.status).toBe(200);
  });
});
