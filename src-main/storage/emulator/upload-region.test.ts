// Kodo's upload hosts serve one region each: a bucket's upload through another region's host is
// refused with 400 `{"error":"incorrect region, please use up-<region>.qiniup.com"}`, on every
// upload path (form, v1, v2). Requests reach the emulator's port with the Host header the SDK
// would send to Qiniu's name; a host that names no region (the emulator's address) takes all.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import qiniu from 'qiniu';
import { startTestEmulator, uploadToken, type TestEmulator } from './test-support';

let env: TestEmulator;

beforeAll(async () => {
  env = await startTestEmulator();
  // `pub` lives in z0 (the default); `north` in z1.
  expect((await new qiniu.rs.BucketManager(env.mac, env.config).createBucket('north', { regionId: 'z1' })).resp.statusCode).toBe(200);
});

afterAll(async () => {
  await env.close();
});

function send(
  host: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer | string,
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: env.emulator.port, method, path, headers: { ...headers, Host: host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString() || 'null') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A form upload as the SDK sends it: token, key, then the file. */
function formUpload(host: string, bucket: string, key: string): Promise<{ status: number; json: unknown }> {
  const boundary = 'regionboundary';
  const token = uploadToken({ scope: `${bucket}:${key}` });
  const body =
    `--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${token}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="key"\r\n\r\n${key}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${key}"\r\nContent-Type: application/octet-stream\r\n\r\nbytes\r\n--${boundary}--\r\n`;
  return send(host, 'POST', '/', { 'Content-Type': `multipart/form-data; boundary=${boundary}` }, body);
}

const upToken = (scope: string): Record<string, string> => ({
  Authorization: `UpToken ${uploadToken({ scope })}`,
  'Content-Type': 'application/octet-stream',
});

describe('upload hosts and regions', () => {
  it('a z0 bucket through a z1 upload host is refused as Kodo refuses it', async () => {
    for (const host of ['up-z1.qiniup.com', 'upload-z1.qiniup.com', 'up-z1.qiniup.com:443', 'UP-Z1.qiniu.com']) {
      expect(await formUpload(host, 'pub', 'wrong.txt')).toEqual({
        status: 400,
        json: { error: 'incorrect region, please use up-z0.qiniup.com' },
      });
    }
    expect(await formUpload('up.qiniup.com', 'north', 'wrong.txt')).toEqual({
      status: 400,
      json: { error: 'incorrect region, please use up-z1.qiniup.com' },
    });
    const stat = await new qiniu.rs.BucketManager(env.mac, env.config).stat('pub', 'wrong.txt');
    expect(stat.resp.statusCode).toBe(612);
  });

  it("its own region's hosts and the emulator's own address are accepted", async () => {
    for (const [host, bucket] of [
      ['up.qiniup.com', 'pub'],
      ['upload-z0.qiniup.com', 'pub'],
      ['up-z1.qiniup.com', 'north'],
      [env.host, 'north'],
      ['uploads.example.com', 'pub'],
    ] as const) {
      const reply = await formUpload(host, bucket, `ok-${host}.txt`);
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({ key: `ok-${host}.txt` });
    }
  });

  it('resumable v1 and v2 are held to the same rule', async () => {
    const wrong = { status: 400, json: { error: 'incorrect region, please use up-z0.qiniup.com' } };
    expect(await send('up-z2.qiniup.com', 'POST', '/mkblk/5', upToken('pub'), 'bytes')).toEqual(wrong);
    expect(await send('up-z2.qiniup.com', 'POST', '/bput/any/0', upToken('pub'), 'bytes')).toEqual(wrong);
    expect(
      await send('up-z2.qiniup.com', 'POST', `/mkfile/5/key/${Buffer.from('k').toString('base64url')}`, upToken('pub:k'), 'ctx'),
    ).toEqual(wrong);
    const key = Buffer.from('v2.bin').toString('base64url');
    expect(await send('up-na0.qiniup.com', 'POST', `/buckets/pub/objects/${key}/uploads`, upToken('pub:v2.bin'), '')).toEqual(wrong);
    const started = await send('up-z0.qiniup.com', 'POST', `/buckets/pub/objects/${key}/uploads`, upToken('pub:v2.bin'), '');
    expect(started.status).toBe(200);
    const mkblk = await send('up.qiniup.com', 'POST', '/mkblk/5', upToken('pub'), 'bytes');
    expect(mkblk.status).toBe(200);
  });
});
