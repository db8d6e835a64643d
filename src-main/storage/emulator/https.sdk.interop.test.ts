import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kodoEtag } from './encoding';
import { AK, SK, startTestEmulator, type TestEmulator } from './test-support';

// The official SDK configured for https (useHttpsDomain), as its own test suite runs it, in a
// process that trusts the emulator's local CA through NODE_EXTRA_CA_CERTS: the way the README
// tells SDK users to do it.
let env: TestEmulator;
beforeAll(async () => {
  env = await startTestEmulator();
});
afterAll(() => env.close());

const qiniuPath = createRequire(import.meta.url).resolve('qiniu');

const script = (port: number, file: string) => `
const qiniu = require(${JSON.stringify(qiniuPath)});
const https = require('node:https');
qiniu.conf.UC_HOST = 'localhost:${port}';
const mac = new qiniu.auth.digest.Mac(${JSON.stringify(AK)}, ${JSON.stringify(SK)});
const config = new qiniu.conf.Config({ useHttpsDomain: true });
const token = new qiniu.rs.PutPolicy({ scope: 'pub', returnBody: '{"key":$(key),"hash":$(etag),"size":$(fsize)}' }).uploadToken(mac);
(async () => {
  const out = {};
  const form = await new qiniu.form_up.FormUploader(config).put(token, 'tls/form.txt', 'over https', new qiniu.form_up.PutExtra());
  out.form = [form.resp.statusCode, form.data];
  for (const version of ['v1', 'v2']) {
    const extra = qiniu.resume_up.PutExtra.create('big.bin', {}, undefined, undefined, undefined, 1024 * 1024, version);
    const result = await new qiniu.resume_up.ResumeUploader(config).putFile(token, 'tls/' + version + '.bin', ${JSON.stringify(file)}, extra);
    out[version] = [result.resp.statusCode, result.data];
  }
  const stat = await new qiniu.rs.BucketManager(mac, config).stat('pub', 'tls/form.txt');
  out.stat = [stat.resp.statusCode, stat.data.fsize, stat.resp.requestUrls];
  // A v1 block names where the upload continues: the scheme and host this client used.
  out.mkblkHost = await new Promise((resolve, reject) => {
    const req = https.request({ host: 'localhost', port: ${port}, path: '/mkblk/4', method: 'POST', headers: { Authorization: 'UpToken ' + token, 'Content-Type': 'application/octet-stream' } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve(JSON.parse(text).host));
    });
    req.on('error', reject);
    req.end('abcd');
  });
  console.log(JSON.stringify(out));
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

describe('https with the local CA', () => {
  it('the SDK set to https uploads (form, resumable v1 and v2) and manages objects once the CA is trusted', async () => {
    const data = randomBytes(2 * 1024 * 1024 + 777);
    const file = join(env.dir, 'upload.bin');
    await writeFile(file, data);
    const caPath = join(env.dir, 'storage', 'tls', 'ca.pem');
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ['-e', script(env.emulator.port, file)], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: caPath },
      timeout: 60_000,
    });
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(out.form).toEqual([200, { key: 'tls/form.txt', hash: kodoEtag(Buffer.from('over https')), size: 10 }]);
    expect(out.v1).toEqual([200, { key: 'tls/v1.bin', hash: kodoEtag(data), size: data.length }]);
    expect(out.v2).toEqual([200, { key: 'tls/v2.bin', hash: kodoEtag(data), size: data.length }]);
    const [status, size, urls] = out.stat as [number, number, string[]];
    expect([status, size]).toEqual([200, 10]);
    expect(urls[0]).toMatch(new RegExp(`^https://localhost:${env.emulator.port}/stat/`));
    expect(out.mkblkHost).toBe(`https://localhost:${env.emulator.port}`);
  });

  it('a process that does not trust the CA is refused', async () => {
    const run = promisify(execFile);
    const code = `fetch('https://localhost:${env.emulator.port}/v4/query?ak=x&bucket=y').then(() => console.log('connected'), (e) => console.log('refused', e.cause && e.cause.code))`;
    const { stdout } = await run(process.execPath, ['-e', code], { env: { ...process.env, NODE_EXTRA_CA_CERTS: '' }, timeout: 30_000 });
    expect(stdout.trim()).toMatch(/^refused (SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|DEPTH_ZERO_SELF_SIGNED_CERT)/);
  });
});
