import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import qiniu from 'qiniu';
import { hmacSha1B64, urlsafeB64Encode } from './encoding';
import { AK, AK2, SK, SK2, httpGet, startRecorder, startTestEmulator, uploadToken, type Recorder, type TestEmulator } from './test-support';

let env: TestEmulator;
let notify: Recorder;
let work: string;
let png: Buffer;

beforeAll(async () => {
  env = await startTestEmulator({ workflows: { thumbnail: `imageView2/2/w/16|saveas/${urlsafeB64Encode('pub:wf-small.png')}` } });
  notify = await startRecorder(() => ({ status: 200, body: '{}' }));
  work = await mkdtemp(join(tmpdir(), 'kodo-fop-'));
  png = await sharp({ create: { width: 200, height: 100, channels: 3, background: { r: 255, g: 0, b: 0 } } })
    .png()
    .withExif({ IFD0: { Make: 'EmuCam', Model: 'K1' } })
    .toBuffer();
  const jpg = await sharp(png)
    .jpeg()
    .withExif({ IFD0: { Make: 'EmuCam', Model: 'K1' } })
    .toBuffer();
  const video = join(work, 'clip.mp4');
  await promisify(execFile)('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=64x48:rate=10:duration=1',
    '-f',
    'lavfi',
    '-i',
    'sine=duration=1',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-c:a',
    'aac',
    '-shortest',
    '-y',
    video,
  ]);
  const form = new qiniu.form_up.FormUploader(env.config);
  for (const [key, data] of [
    ['pic.png', png],
    ['pic.jpg', jpg],
    ['clip.mp4', await readFile(video)],
  ] as const) {
    const result = await form.put(uploadToken({ scope: `pub:${key}` }), key, data, new qiniu.form_up.PutExtra());
    expect(result.resp.statusCode).toBe(200);
  }
}, 30_000);

afterAll(async () => {
  await env.close();
  await notify.close();
  await rm(work, { recursive: true, force: true });
});

async function waitFor(id: string): Promise<Record<string, unknown>> {
  const op = new qiniu.fop.OperationManager(env.mac, env.config);
  await env.emulator.idle();
  return new Promise((resolve, reject) => op.prefop(id, (err, body) => (err ? reject(err) : resolve(body as Record<string, unknown>))));
}

describe('image commands on download URLs', () => {
  it('imageView2, imageMogr2 thumbnail, imageInfo, exif, imageAve', async () => {
    const view = await httpGet(env.emulator.port, '/pic.png?imageView2/1/w/50/h/50', { Host: 'pub.test' });
    expect(view.status).toBe(200);
    expect(await sharp(view.body).metadata()).toMatchObject({ width: 50, height: 50, format: 'png' });
    const fit = await httpGet(env.emulator.port, '/pic.png?imageView2/2/w/100/format/jpg', { Host: 'pub.test' });
    expect(fit.headers.get('content-type')).toBe('image/jpeg');
    expect(await sharp(fit.body).metadata()).toMatchObject({ width: 100, height: 50 });
    const thumb = await httpGet(env.emulator.port, '/pic.png?imageMogr2/thumbnail/!50p', { Host: 'pub.test' });
    expect(await sharp(thumb.body).metadata()).toMatchObject({ width: 100, height: 50 });
    const info = JSON.parse((await httpGet(env.emulator.port, '/pic.png?imageInfo', { Host: 'pub.test' })).body.toString());
    expect(info).toMatchObject({ format: 'png', width: 200, height: 100 });
    const exif = JSON.parse((await httpGet(env.emulator.port, '/pic.jpg?exif', { Host: 'pub.test' })).body.toString());
    expect(exif.Make).toEqual({ val: 'EmuCam', type: 2 });
    const ave = JSON.parse((await httpGet(env.emulator.port, '/pic.png?imageAve', { Host: 'pub.test' })).body.toString());
    expect(ave).toEqual({ RGB: '0xff0000' });
  });

  it('chains commands with | on a download URL; an unknown command is a 400, not the original file', async () => {
    const chained = await httpGet(env.emulator.port, '/pic.png?imageView2/1/w/50/h/40|imageInfo', { Host: 'pub.test' });
    expect(chained.status).toBe(200);
    expect(JSON.parse(chained.body.toString())).toMatchObject({ format: 'png', width: 50, height: 40 });
    const unknown = await httpGet(env.emulator.port, '/pic.png?imageFly/2', { Host: 'pub.test' });
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.body.toString()).error).toContain('imageFly');
    // A plain query (a cache buster, attname, a lone flag word) is not processing.
    expect((await httpGet(env.emulator.port, '/pic.png?v=3', { Host: 'pub.test' })).status).toBe(200);
    const flag = await httpGet(env.emulator.port, '/pic.png?qiniu&sign=abc&t=5f5e1000', { Host: 'pub.test' });
    expect(flag.status).toBe(200);
    expect(flag.headers.get('content-type')).toBe('image/png');
  });

  it('moderation answers as for an account without the service, never a verdict', async () => {
    for (const path of ['/pic.png?nrop', '/pic.png?qpulp', '/pic.png?imageView2/1/w/10|nrop']) {
      const refused = await httpGet(env.emulator.port, path, { Host: 'pub.test' });
      expect(refused.status, path).toBe(403);
      expect(JSON.parse(refused.body.toString()).error, path).toMatch(/content moderation service is not enabled for this account/);
    }
    const url = `http://${env.host}/v3/image/censor`;
    const body = JSON.stringify({ data: { uri: 'http://pub.test/pic.png' }, params: { scenes: ['pulp'] } });
    const censor = await fetch(url, {
      method: 'POST',
      body,
      headers: {
        'Content-Type': 'application/json',
        Authorization: qiniu.util.generateAccessTokenV2(env.mac, url, 'POST', 'application/json', body, {}),
      },
    });
    expect(censor.status).toBe(403);
    expect(((await censor.json()) as { error: string }).error).toMatch(/^image censor: the content moderation service is not enabled/);
  });
});

describe('persistent processing through OperationManager', () => {
  it('pfop with saveas, prefop status and the notify POST', async () => {
    const op = new qiniu.fop.OperationManager(env.mac, env.config);
    const fops = [
      `vframe/jpg/offset/0/w/32|saveas/${urlsafeB64Encode('pub:out/frame.jpg')}`,
      `avthumb/mp4/s/32x24|saveas/${urlsafeB64Encode('pub:out/small.mp4')}`,
      `avthumb/m3u8/segtime/1|saveas/${urlsafeB64Encode('pub:out/play.m3u8')}`,
      'imageInfo',
    ];
    const id = await new Promise<string>((resolve, reject) =>
      op.pfop('pub', 'clip.mp4', fops, '', { notifyURL: `${notify.url}/done`, force: true }, (err, body, info) => {
        if (err) reject(err);
        else if (info.statusCode !== 200) reject(new Error(JSON.stringify(body)));
        else resolve((body as { persistentId: string }).persistentId);
      }),
    );
    const status = await waitFor(id);
    expect(status).toMatchObject({ id, code: 3, inputBucket: 'pub', inputKey: 'clip.mp4' });
    const items = status['items'] as { cmd: string; code: number; key?: string; error?: string }[];
    expect(items.map((i) => i.code)).toEqual([0, 0, 0, 3]); // imageInfo on a video fails
    const frame = await httpGet(env.emulator.port, '/download/pub/out/frame.jpg');
    expect(await sharp(frame.body).metadata()).toMatchObject({ format: 'jpeg', width: 32 });
    const mp4 = await httpGet(env.emulator.port, '/download/pub/out/small.mp4');
    expect(mp4.body.subarray(4, 8).toString()).toBe('ftyp');
    const playlist = (await httpGet(env.emulator.port, '/download/pub/out/play.m3u8')).body.toString();
    const segment = playlist.split('\n').find((l) => l.endsWith('.ts'))!;
    expect((await httpGet(env.emulator.port, `/download/pub/out/${segment}`)).status).toBe(200);
    expect(notify.requests.at(-1)!.url).toBe('/done');
    expect(JSON.parse(notify.requests.at(-1)!.body.toString())).toMatchObject({ id, code: 3 });
  }, 30_000);

  it('persistentOps in the upload policy returns a persistentId', async () => {
    const token = uploadToken({ scope: 'pub:po.png', persistentOps: `imageView2/2/w/20|saveas/${urlsafeB64Encode('pub:po-small.png')}` });
    const result = await new qiniu.form_up.FormUploader(env.config).put(token, 'po.png', png, new qiniu.form_up.PutExtra());
    expect(result.data.persistentId).toMatch(/^z0\./);
    const status = await waitFor(result.data.persistentId);
    expect(status).toMatchObject({ code: 0 });
    expect(await sharp((await httpGet(env.emulator.port, '/download/pub/po-small.png')).body).metadata()).toMatchObject({ width: 20 });
  });

  it('workflow templates run from the upload policy and from pfop; unknown ones are refused', async () => {
    const token = uploadToken({ scope: 'pub:wf.png', persistentWorkflowTemplateID: 'thumbnail' });
    const result = await new qiniu.form_up.FormUploader(env.config).put(token, 'wf.png', png, new qiniu.form_up.PutExtra());
    // prefop names the template a task came from.
    expect(await waitFor(result.data.persistentId)).toMatchObject({ code: 0, taskFrom: 'thumbnail', creationDate: expect.any(String) });
    expect(await sharp((await httpGet(env.emulator.port, '/download/pub/wf-small.png')).body).metadata()).toMatchObject({ width: 16 });

    const op = new qiniu.fop.OperationManager(env.mac, env.config);
    const viaPfop = await new Promise<{ status: number; body: { persistentId?: string; error?: string } }>((resolve, reject) =>
      op.pfop('pub', 'pic.png', null as unknown as string[], '', { workflowTemplateID: 'thumbnail', force: true }, (err, body, info) =>
        err ? reject(err) : resolve({ status: info.statusCode, body: body ?? {} }),
      ),
    );
    expect(viaPfop.status).toBe(200);
    expect(await waitFor(viaPfop.body.persistentId!)).toMatchObject({ code: 0, taskFrom: 'thumbnail' });

    const unknown = uploadToken({ scope: 'pub:wf2.png', persistentWorkflowTemplateID: 'nope' });
    const refused = await new qiniu.form_up.FormUploader(env.config).put(unknown, 'wf2.png', png, new qiniu.form_up.PutExtra());
    expect(refused.resp.statusCode).toBe(400);
    expect(refused.data.error).toMatch(/no workflow template named nope/);
    expect((await httpGet(env.emulator.port, '/download/pub/wf2.png')).status).toBe(404);
  });

  it('an unknown persistentId → 612', async () => {
    expect((await httpGet(env.emulator.port, '/status/get/prefop?id=nope')).status).toBe(612);
  });
});

describe('CDN API (QBox-signed JSON, as CdnManager sends it)', () => {
  async function cdn(path: string, body: unknown, ak = AK, sk = SK): Promise<{ status: number; json: Record<string, unknown> }> {
    const url = `http://${env.host}${path}`;
    const auth = qiniu.util.generateAccessToken(new qiniu.auth.digest.Mac(ak, sk), url, '');
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: auth },
      body: JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  }

  it('refresh: URLs counted against the quota, dirs need the permission (400038), at most 100 URLs', async () => {
    const ok = await cdn('/v2/tune/refresh', { urls: ['http://pub.test/a.txt'] });
    expect(ok.json).toMatchObject({ code: 200, invalidUrls: null, urlQuotaDay: 500, urlSurplusDay: 499 });
    const dirs = await cdn('/v2/tune/refresh', { dirs: ['http://pub.test/d/'] });
    expect(dirs.json['code']).toBe(400038);
    const other = await cdn('/v2/tune/refresh', { dirs: ['http://other.test/d/'] }, AK2, SK2);
    expect(other.json['code']).toBe(200);
    const many = await cdn('/v2/tune/refresh', { urls: Array.from({ length: 101 }, (_, i) => `http://pub.test/${i}`) });
    expect(many.status).toBe(400);
    const invalid = await cdn('/v2/tune/refresh', { urls: ['http://elsewhere.test/x'] });
    expect(invalid.json['invalidUrls']).toEqual(['http://elsewhere.test/x']);
  });

  it('prefetch, flux and bandwidth from the download log, log list with a downloadable log', async () => {
    expect((await cdn('/v2/tune/prefetch', { urls: ['http://pub.test/pic.png'] })).json['code']).toBe(200);
    const before = Date.now();
    await httpGet(env.emulator.port, '/pic.png', { Host: 'pub.test' });
    const today = new Date(before).toISOString().slice(0, 10);
    const flux = await cdn('/v2/tune/flux', { startDate: today, endDate: today, granularity: 'day', domains: 'pub.test' });
    const data = flux.json['data'] as Record<string, { china: number[] }>;
    expect(data['pub.test']!.china[0]).toBeGreaterThanOrEqual(png.length);
    const bw = await cdn('/v2/tune/bandwidth', { startDate: today, endDate: today, granularity: 'hour', domains: 'pub.test' });
    expect((bw.json['time'] as string[]).length).toBe(24);
    // A multiple of a unit (the Node SDK's own tests ask for 5hour); under five minutes is refused.
    const fiveHours = await cdn('/v2/tune/flux', { startDate: today, endDate: today, granularity: '5hour', domains: 'pub.test' });
    expect(fiveHours.json['time']).toHaveLength(5);
    expect((await cdn('/v2/tune/flux', { startDate: today, endDate: today, granularity: '1min', domains: 'pub.test' })).json['code']).toBe(
      400000,
    );
    const logs = await cdn('/v2/tune/log/list', { day: today, domains: 'pub.test' });
    const entries = (logs.json['data'] as Record<string, { url: string; name: string }[]>)['pub.test']!;
    expect(entries.length).toBeGreaterThan(0);
    const link = new URL(entries[0]!.url);
    const file = await httpGet(env.emulator.port, link.pathname + link.search);
    expect(file.status).toBe(200);
    const { gunzipSync } = await import('node:zlib');
    expect(gunzipSync(file.body).toString()).toContain('GET http://pub.test/pic.png');
    expect((await httpGet(env.emulator.port, link.pathname)).status).toBe(401);
    void hmacSha1B64;
  });
});
