import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import qiniu from 'qiniu';
import Database from 'better-sqlite3';
import { waitUntil } from '../../test-support/time';
import { kodoEtag } from './encoding';
import { AK, httpGet, startRecorder, startTestEmulator, uploadToken, type Recorder, type TestEmulator } from './test-support';

let env: TestEmulator;
let files: string;

beforeAll(async () => {
  env = await startTestEmulator();
  files = await mkdtemp(join(tmpdir(), 'kodo-up-'));
});

afterAll(async () => {
  await env.close();
  await rm(files, { recursive: true, force: true });
});

function form(): qiniu.form_up.FormUploader {
  return new qiniu.form_up.FormUploader(env.config);
}

async function download(bucket: string, key: string): Promise<Buffer> {
  const r = await httpGet(env.emulator.port, `/download/${bucket}/${encodeURI(key)}`);
  expect(r.status).toBe(200);
  return r.body;
}

describe('form upload through the qiniu SDK', () => {
  it('stores the bytes under the key and answers {hash, key} with the Kodo etag', async () => {
    const token = uploadToken({ scope: 'pub' });
    const result = await form().put(token, 'hello.txt', 'hello kodo', new qiniu.form_up.PutExtra());
    expect(result.resp.statusCode).toBe(200);
    expect(result.data).toEqual({ hash: kodoEtag(Buffer.from('hello kodo')), key: 'hello.txt' });
    expect((await download('pub', 'hello.txt')).toString()).toBe('hello kodo');
  });

  it('the empty file has the documented etag and a missing key defaults to the hash', async () => {
    const result = await form().put(uploadToken({ scope: 'pub' }), null, '', new qiniu.form_up.PutExtra());
    expect(result.data).toEqual({ hash: 'Fto5o-5ea0sNMlW_75VgGJCv2AcJ', key: 'Fto5o-5ea0sNMlW_75VgGJCv2AcJ' });
  });

  it('putFile sends crc32 and x: variables; returnBody fills magic variables', async () => {
    const path = join(files, 'small.bin');
    const data = randomBytes(50_000);
    data[0] = 0; // binary from the first byte: no text or JSON sniffing
    await writeFile(path, data);
    const token = uploadToken({
      scope: 'pub:dir/small.bin',
      returnBody:
        '{"key":"$(key)","hash":"$(etag)","size":$(fsize),"bucket":"$(bucket)","name":"$(fname)","who":"$(x:who)","mime":"$(mimeType)"}',
    });
    const extra = new qiniu.form_up.PutExtra('small.bin', { 'x:who': 'tester' });
    const result = await form().putFile(token, 'dir/small.bin', path, extra);
    expect(result.resp.statusCode).toBe(200);
    expect(result.data).toEqual({
      key: 'dir/small.bin',
      hash: kodoEtag(data),
      size: 50_000,
      bucket: 'pub',
      name: 'small.bin',
      who: 'tester',
      mime: 'application/octet-stream',
    });
    expect((await download('pub', 'dir/small.bin')).equals(data)).toBe(true);
  });

  it("returnBody with unquoted variables (the SDK suites' template) answers JSON with quoted strings", async () => {
    const token = uploadToken({
      scope: 'pub',
      returnBody:
        '{"key":$(key),"hash":$(etag),"fname":$(fname),"size":$(fsize),"var_1":$(x:var_1),"none":$(x:none),"note":"of $(x:var_1) \\"quoted\\""}',
    });
    const extra = new qiniu.form_up.PutExtra('a "b".txt', { 'x:var_1': 'v1 "x"' });
    const result = await form().put(token, 'unquoted.txt', 'unquoted', extra);
    expect(result.resp.statusCode).toBe(200);
    expect(result.data).toEqual({
      key: 'unquoted.txt',
      hash: kodoEtag(Buffer.from('unquoted')),
      fname: 'a "b".txt',
      size: 8,
      var_1: 'v1 "x"',
      none: null,
      note: 'of v1 "x" "quoted"',
    });
  });

  it('saveKey with forceSaveKey names the object, endUser and fileType are stored', async () => {
    const token = uploadToken({
      scope: 'pub',
      saveKey: 'saved/$(x:id)$(ext)',
      forceSaveKey: true,
      endUser: 'u1',
      fileType: 1,
      detectMime: 1,
    });
    const extra = new qiniu.form_up.PutExtra('pic.json', { 'x:id': '42' });
    const result = await form().put(token, 'ignored', '{"a":1}', extra);
    expect(result.data).toMatchObject({ key: 'saved/42.json' });
    const stat = await new qiniu.rs.BucketManager(env.mac, env.config).stat('pub', 'saved/42.json');
    expect(stat.data).toMatchObject({ fsize: 7, type: 1, endUser: 'u1', mimeType: 'application/json' });
  });

  it('returnUrl answers 303 with upload_ret', async () => {
    const token = uploadToken({ scope: 'pub', returnUrl: 'http://example.test/done' });
    const body = new FormData();
    body.set('token', token);
    body.set('key', 'ret.txt');
    body.set('file', new Blob(['x']), 'ret.txt');
    const response = await fetch(`http://${env.host}/`, { method: 'POST', body, redirect: 'manual' });
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location')!);
    expect(JSON.parse(Buffer.from(location.searchParams.get('upload_ret')!, 'base64url').toString())).toEqual({
      hash: kodoEtag(Buffer.from('x')),
      key: 'ret.txt',
    });
  });
});

describe('upload errors as the SDK sees them', () => {
  const put = (token: string, key: string | null, data: string, extra = new qiniu.form_up.PutExtra()) =>
    form().put(token, key, data, extra);

  it('expired token → 401', async () => {
    const token = uploadToken({ scope: 'pub', expires: 1 });
    env.shift(5_000);
    try {
      const result = await put(token, 'late.txt', 'x');
      expect(result.resp.statusCode).toBe(401);
      expect(result.data).toEqual({ error: 'expired token' });
    } finally {
      env.shift(0);
    }
  });

  it('wrong secret → 401', async () => {
    const result = await put(uploadToken({ scope: 'pub' }, AK, 'wrong-secret'), 'w.txt', 'x');
    expect(result.resp.statusCode).toBe(401);
    expect(result.data.error).toMatch(/bad token/);
  });

  it('scope mismatch → 403', async () => {
    const result = await put(uploadToken({ scope: 'pub:only-this' }), 'other', 'x');
    expect(result.resp.statusCode).toBe(403);
  });

  it('prefix scope accepts keys under the prefix only', async () => {
    const token = uploadToken({ scope: 'pub:logs/', isPrefixalScope: 1 });
    expect((await put(token, 'logs/a.txt', 'a')).resp.statusCode).toBe(200);
    expect((await put(token, 'other/a.txt', 'a')).resp.statusCode).toBe(403);
  });

  it('bucket scope is insert-only (614), bucket:key overwrites unless insertOnly', async () => {
    expect((await put(uploadToken({ scope: 'pub' }), 'once.txt', 'one')).resp.statusCode).toBe(200);
    const again = await put(uploadToken({ scope: 'pub' }), 'once.txt', 'two');
    expect(again.resp.statusCode).toBe(614);
    expect(again.data).toEqual({ error: 'file exists' });
    expect((await put(uploadToken({ scope: 'pub:once.txt' }), 'once.txt', 'two')).resp.statusCode).toBe(200);
    expect((await put(uploadToken({ scope: 'pub:once.txt', insertOnly: 1 }), 'once.txt', 'three')).resp.statusCode).toBe(614);
    expect((await download('pub', 'once.txt')).toString()).toBe('two');
  });

  it('crc32 mismatch → 406 and nothing stored', async () => {
    const extra = new qiniu.form_up.PutExtra();
    extra.crc32 = String(crc32('something else'));
    const result = await put(uploadToken({ scope: 'pub' }), 'crc.txt', 'payload', extra);
    expect(result.resp.statusCode).toBe(406);
    expect((await httpGet(env.emulator.port, '/download/pub/crc.txt')).status).toBe(404);
  });

  it('fsizeLimit → 413, fsizeMin → 403, mimeLimit → 403', async () => {
    expect((await put(uploadToken({ scope: 'pub', fsizeLimit: 10 }), 'big.txt', 'x'.repeat(11))).resp.statusCode).toBe(413);
    expect((await put(uploadToken({ scope: 'pub', fsizeMin: 10 }), 'tiny.txt', 'x')).resp.statusCode).toBe(403);
    expect((await put(uploadToken({ scope: 'pub', mimeLimit: 'image/*', detectMime: 1 }), 'text.txt', 'plain text')).resp.statusCode).toBe(
      403,
    );
  });

  it('unknown bucket → 631', async () => {
    const result = await put(uploadToken({ scope: 'nope' }), 'k', 'x');
    expect(result.resp.statusCode).toBe(631);
  });

  it('policy rules: persistentType 1 with a pipeline → 400', async () => {
    const result = await put(
      uploadToken({ scope: 'pub', persistentOps: 'imageInfo', persistentType: 1, persistentPipeline: 'p' }),
      'pt.txt',
      'x',
    );
    expect(result.resp.statusCode).toBe(400);
  });
});

describe('upload callbacks', () => {
  let business: Recorder;
  beforeAll(async () => {
    business = await startRecorder((req) =>
      req.url === '/fail' ? { status: 500, body: '{"error":"nope"}' } : { status: 200, body: '{"ok":true,"from":"business"}' },
    );
  });
  afterAll(() => business.close());

  it('POSTs the callbackBody signed with QBox and forwards the reply', async () => {
    const token = uploadToken({ scope: 'pub', callbackUrl: `${business.url}/cb`, callbackBody: 'key=$(key)&hash=$(etag)&who=$(x:who)' });
    const result = await form().put(token, 'cb.txt', 'callback me', new qiniu.form_up.PutExtra('cb.txt', { 'x:who': 'a b' }));
    expect(result.resp.statusCode).toBe(200);
    expect(result.data).toEqual({ ok: true, from: 'business' });
    const request = business.requests.at(-1)!;
    const body = request.body.toString();
    expect(body).toBe(`key=cb.txt&hash=${encodeURIComponent(kodoEtag(Buffer.from('callback me')))}&who=a%20b`);
    const mac = env.mac;
    expect(qiniu.util.isQiniuCallback(mac, `${business.url}/cb`, body, request.headers.authorization!)).toBe(true);
  });

  it('callbackFetchKey: the business server names the object', async () => {
    const renamer = await startRecorder(() => ({ status: 200, body: '{"key":"renamed-by-server.txt","ok":1}' }));
    try {
      const token = uploadToken({ scope: 'pub', callbackUrl: `${renamer.url}/cb`, callbackBody: 'k=$(key)', callbackFetchKey: 1 });
      const result = await form().put(token, 'original.txt', 'named later', new qiniu.form_up.PutExtra());
      expect(result.data).toEqual({ key: 'renamed-by-server.txt', ok: 1 });
      expect((await download('pub', 'renamed-by-server.txt')).toString()).toBe('named later');
      expect((await httpGet(env.emulator.port, '/download/pub/original.txt')).status).toBe(404);
    } finally {
      await renamer.close();
    }
  });

  it('callbackHost reaches the business server as its Host header', async () => {
    const token = uploadToken({
      scope: 'pub',
      callbackUrl: `${business.url}/cb`,
      callbackHost: 'callback.example.com',
      callbackBody: '{"key":$(key)}',
      callbackBodyType: 'application/json',
    });
    const result = await form().put(token, 'cb-host.txt', 'host', new qiniu.form_up.PutExtra());
    expect(result.resp.statusCode).toBe(200);
    expect(business.requests.at(-1)!.headers.host).toBe('callback.example.com');
    expect(business.requests.at(-1)!.body.toString()).toBe('{"key":"cb-host.txt"}');
  });

  it('a failing callback → 579', async () => {
    const token = uploadToken({
      scope: 'pub',
      callbackUrl: `${business.url}/fail`,
      callbackBody: '{"key":"$(key)"}',
      callbackBodyType: 'application/json',
    });
    const result = await form().put(token, 'cb2.txt', 'x', new qiniu.form_up.PutExtra());
    expect(result.resp.statusCode).toBe(579);
    expect(business.requests.at(-1)!.body.toString()).toBe('{"key":"cb2.txt"}');
  });
});

describe('resumable upload through the SDK', () => {
  const MiB = 1024 * 1024;

  for (const version of ['v1', 'v2'] as const) {
    it(`${version}: interrupted by the client, resumed from the record, etag matches`, async () => {
      const data = randomBytes(3 * MiB + 12345);
      const path = join(files, `big-${version}.bin`);
      const record = join(files, `big-${version}.progress`);
      await writeFile(path, data);
      const token = uploadToken({ scope: `pub:big-${version}.bin` });
      const uploader = new qiniu.resume_up.ResumeUploader(env.config);
      let calls = 0;
      const first = qiniu.resume_up.PutExtra.create(
        'big.bin',
        {},
        undefined,
        record,
        () => {
          calls += 1;
          if (calls === 2) throw new Error('simulated interruption');
        },
        MiB,
        version,
      );
      await expect(uploader.putFile(token, `big-${version}.bin`, path, first)).rejects.toThrow(/simulated interruption|unexpect/);
      expect(readdirSync(files).some((f) => f !== `big-${version}.bin` && !f.endsWith('.bin'))).toBe(true);
      expect((await httpGet(env.emulator.port, `/download/pub/big-${version}.bin`)).status).toBe(404);

      const progress: number[] = [];
      const second = qiniu.resume_up.PutExtra.create(
        'big.bin',
        {},
        undefined,
        record,
        (uploaded: number) => progress.push(uploaded),
        MiB,
        version,
      );
      const result = await uploader.putFile(token, `big-${version}.bin`, path, second);
      expect(result.resp.statusCode).toBe(200);
      expect(result.data).toEqual({ hash: kodoEtag(data), key: `big-${version}.bin` });
      // 4 parts in all; two were done before the interruption.
      expect(progress.length).toBe(2);
      expect((await download('pub', `big-${version}.bin`)).equals(data)).toBe(true);
    });
  }

  it("v2 with 4 MiB parts: the etag is made from the parts' block hashes, recorded as each part is acknowledged", async () => {
    const data = randomBytes(2 * 4 * MiB + 54321);
    const path = join(files, 'blocks.bin');
    await writeFile(path, data);
    const token = uploadToken({ scope: 'pub:blocks.bin' });
    const acknowledged: number[] = [];
    const extra = qiniu.resume_up.PutExtra.create(
      'blocks.bin',
      {},
      undefined,
      undefined,
      (uploaded: number) => acknowledged.push(uploaded),
      4 * MiB,
      'v2',
    );
    const result = await new qiniu.resume_up.ResumeUploader(env.config).putFile(token, 'blocks.bin', path, extra);
    expect(result.resp.statusCode).toBe(200);
    expect(result.data).toEqual({ hash: kodoEtag(data), key: 'blocks.bin' });
    expect(acknowledged).toEqual([4 * MiB, 8 * MiB, data.length]);
    expect((await download('pub', 'blocks.bin')).equals(data)).toBe(true);
  });

  it("v2 over raw HTTP: block hashes are on each part's row before completion, and a part sent again replaces them", async () => {
    const token = uploadToken({ scope: 'pub' });
    const object = Buffer.from('rows.bin').toString('base64url');
    const base = `http://${env.host}/buckets/pub/objects/${object}/uploads`;
    const auth = { Authorization: `UpToken ${token}` };
    const { uploadId } = (await (await fetch(base, { method: 'POST', headers: auth })).json()) as { uploadId: string };
    const parts = [randomBytes(4 * MiB), randomBytes(4 * MiB), randomBytes(5000)];
    const send = async (n: number, body: Buffer) => {
      const r = await fetch(`${base}/${uploadId}/${n}`, { method: 'PUT', headers: auth, body: new Uint8Array(body) });
      expect(r.status).toBe(200);
      return ((await r.json()) as { etag: string }).etag;
    };
    const etags = [await send(1, parts[0]!), await send(2, parts[1]!), await send(3, parts[2]!)];
    const db = new Database(join(env.dir, 'storage', 'metadata.sqlite'), { readonly: true });
    try {
      const rows = () =>
        db
          .prepare<[string], { part_number: number; blocks: Buffer | null }>(
            'SELECT part_number, blocks FROM parts WHERE upload_id = ? ORDER BY part_number',
          )
          .all(uploadId);
      await waitUntil(() => rows().every((r) => r.blocks !== null), { what: "every part's block sha1s" });
      expect(rows().map((r) => r.blocks!.toString('hex'))).toEqual(parts.map((p) => createHash('sha1').update(p).digest('hex')));
      parts[1] = randomBytes(4 * MiB);
      etags[1] = await send(2, parts[1]);
      await waitUntil(() => rows()[1]!.blocks?.equals(createHash('sha1').update(parts[1]!).digest()) === true, {
        what: "the new part 2's block sha1s",
      });
    } finally {
      db.close();
    }
    const complete = await fetch(`${base}/${uploadId}`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ parts: etags.map((etag, i) => ({ etag, partNumber: i + 1 })) }),
    });
    const whole = Buffer.concat(parts);
    expect(await complete.json()).toEqual({ hash: kodoEtag(whole), key: 'rows.bin' });
    expect((await download('pub', 'rows.bin')).equals(whole)).toBe(true);
  });

  it('v2: a part whose Content-MD5 does not match → 406', async () => {
    const token = uploadToken({ scope: 'pub' });
    const init = await fetch(`http://${env.host}/buckets/pub/objects/${Buffer.from('md5.bin').toString('base64url')}/uploads`, {
      method: 'POST',
      headers: { Authorization: `UpToken ${token}` },
    });
    const { uploadId } = (await init.json()) as { uploadId: string };
    const part = await fetch(
      `http://${env.host}/buckets/pub/objects/${Buffer.from('md5.bin').toString('base64url')}/uploads/${uploadId}/1`,
      {
        method: 'PUT',
        headers: { Authorization: `UpToken ${token}`, 'Content-MD5': '0'.repeat(32) },
        body: 'abc',
      },
    );
    expect(part.status).toBe(406);
    const gone = await fetch(`http://${env.host}/buckets/pub/objects/${Buffer.from('md5.bin').toString('base64url')}/uploads/nope/1`, {
      method: 'PUT',
      headers: { Authorization: `UpToken ${token}` },
      body: 'abc',
    });
    expect(gone.status).toBe(612);
  });

  it('v2 over raw HTTP: parts out of order and a part sent again still assemble the right bytes', async () => {
    const token = uploadToken({ scope: 'pub' });
    const object = Buffer.from('raw.bin').toString('base64url');
    const base = `http://${env.host}/buckets/pub/objects/${object}/uploads`;
    const auth = { Authorization: `UpToken ${token}` };
    const { uploadId } = (await (await fetch(base, { method: 'POST', headers: auth })).json()) as { uploadId: string };
    const parts = [randomBytes(1000), randomBytes(2000), randomBytes(3000), randomBytes(10)];
    const send = async (n: number, body: Buffer) => {
      const r = await fetch(`${base}/${uploadId}/${n}`, {
        method: 'PUT',
        headers: { ...auth, 'Content-MD5': createHash('md5').update(body).digest('hex') },
        body: new Uint8Array(body),
      });
      expect(r.status).toBe(200);
      return ((await r.json()) as { etag: string }).etag;
    };
    const etags: string[] = [];
    etags[0] = await send(1, parts[0]!);
    etags[1] = await send(2, parts[1]!);
    etags[3] = await send(4, parts[3]!); // out of order: its own file
    etags[2] = await send(3, parts[2]!);
    parts[1] = randomBytes(1500); // part 2 again, while parts 1-3 sit in the assembly file
    etags[1] = await send(2, parts[1]!);
    const listed = await (await fetch(`${base}/${uploadId}`, { headers: auth })).json();
    expect((listed as { parts: unknown[] }).parts).toHaveLength(4);
    const complete = await fetch(`${base}/${uploadId}`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ parts: etags.map((etag, i) => ({ etag, partNumber: i + 1 })) }),
    });
    const whole = Buffer.concat(parts);
    expect(await complete.json()).toEqual({ hash: kodoEtag(whole), key: 'raw.bin' });
    expect((await download('pub', 'raw.bin')).equals(whole)).toBe(true);
    // The upload is gone once completed.
    expect((await fetch(`${base}/${uploadId}`, { headers: auth })).status).toBe(612);
  });

  it('v1: mkfile with an unknown ctx → 701', async () => {
    const token = uploadToken({ scope: 'pub' });
    const response = await fetch(`http://${env.host}/mkfile/3`, {
      method: 'POST',
      headers: { Authorization: `UpToken ${token}` },
      body: 'not-a-ctx',
    });
    expect(response.status).toBe(701);
  });

  it('an upload cut off mid-body leaves no object and no temp file', async () => {
    const token = uploadToken({ scope: 'pub' });
    const boundary = 'cutcutcut';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${token}\r\n--${boundary}\r\nContent-Disposition: form-data; name="key"\r\n\r\ncut.bin\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n\r\n`;
    const { request } = await import('node:http');
    const tmp = join(env.dir, 'storage', 'tmp');
    const staged = () => (existsSync(tmp) ? readdirSync(tmp).length : 0);
    const req = request({
      host: '127.0.0.1',
      port: env.emulator.port,
      method: 'POST',
      path: '/',
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': 10_000_000 },
    });
    req.on('error', () => undefined);
    req.write(head);
    req.write(randomBytes(200_000));
    // Cut off once the emulator is writing the file part to a temp file, then wait for it to let go.
    await waitUntil(() => staged() > 0, { what: 'the file part to be staged' });
    req.destroy();
    await waitUntil(() => staged() === 0, { what: 'the temp file to be removed' });
    expect((await httpGet(env.emulator.port, '/download/pub/cut.bin')).status).toBe(404);
  });
});
