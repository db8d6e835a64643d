// Probe: a private download link signed by the official SDK may not be stretched with parameters
// after its token (`&attname=evil.html` would make a signed link serve a download under another
// name, or a processing command run on the file). Kodo signs the URL up to `e=`, the token is the
// last parameter, and anything after it is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import qiniu from 'qiniu';
import { httpGet, startTestEmulator, uploadToken, type TestEmulator } from './test-support';

let env: TestEmulator;
let bm: qiniu.rs.BucketManager;

beforeAll(async () => {
  env = await startTestEmulator();
  bm = new qiniu.rs.BucketManager(env.mac, env.config);
  const put = await new qiniu.form_up.FormUploader(env.config).put(
    uploadToken({ scope: 'priv:report.pdf' }),
    'report.pdf',
    '%PDF-1.4 quarterly',
    new qiniu.form_up.PutExtra(),
  );
  expect(put.resp.statusCode).toBe(200);
});

afterAll(async () => {
  await env.close();
});

const deadline = (): number => Math.floor(Date.now() / 1000) + 3600;

async function get(link: string): Promise<Awaited<ReturnType<typeof httpGet>>> {
  const url = new URL(link);
  return httpGet(env.emulator.port, url.pathname + url.search, { Host: 'priv.test' });
}

describe('private download links: only signed parameters count', () => {
  it('a signed link serves the file', async () => {
    const ok = await get(bm.privateDownloadUrl('http://priv.test', 'report.pdf', deadline()));
    expect(ok.status).toBe(200);
    expect(ok.body.toString()).toBe('%PDF-1.4 quarterly');
    expect(ok.headers.get('content-disposition')).toBeNull();
  });

  for (const extra of ['&attname=evil.html', '&attname=', '&imageInfo', '&x=1', '&token=x']) {
    it(`a parameter after the token (${extra}) is refused with 401, not honoured`, async () => {
      const stretched = await get(bm.privateDownloadUrl('http://priv.test', 'report.pdf', deadline()) + extra);
      expect(stretched.status).toBe(401);
      expect(stretched.headers.get('content-disposition')).toBeNull();
      expect((JSON.parse(stretched.body.toString()) as { error: string }).error).toMatch(/^bad token/);
    });
  }

  it('the refusal says why', async () => {
    const stretched = await get(bm.privateDownloadUrl('http://priv.test', 'report.pdf', deadline()) + '&attname=evil.html');
    expect(JSON.parse(stretched.body.toString())).toEqual({
      error: 'bad token: parameters after token are not signed; put them before e= and sign the URL again',
    });
  });

  it('attname signed before e= still names the download', async () => {
    const named = await get(bm.privateDownloadUrl('http://priv.test', 'report.pdf?attname=q3.pdf', deadline()));
    expect(named.status).toBe(200);
    expect(named.body.toString()).toBe('%PDF-1.4 quarterly');
    expect(named.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''q3.pdf");
  });

  it('attname slipped in between a signed e= and the token breaks the signature', async () => {
    const link = bm.privateDownloadUrl('http://priv.test', 'report.pdf', deadline());
    const moved = await get(link.replace('&token=', '&attname=evil.html&token='));
    expect(moved.status).toBe(401);
    expect(JSON.parse(moved.body.toString())).toEqual({ error: 'bad token' });
  });
});
