import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestEngine } from '@main/engine/test-engine';
import { put, startStorage } from '../../test-support';

type Ok<T> = { ok: true; value: T };

describe('previews through the console origin', () => {
  let running: TestEngine | undefined;
  afterEach(async () => running?.stop());

  async function preview(key: string, view: string, bucket = 'photos', headers: Record<string, string> = {}) {
    const link = (await running!.engine.services.call('storage', 'previewLink', { accountId: 'local', bucket, key, view })) as Ok<{
      url: string;
      expiresAt: number;
    }>;
    expect(link.value.url).toMatch(/^\/console\/preview\/[\w-]{24}$/);
    const response = await fetch(`${running!.engine.server.url}${link.value.url}`, { headers });
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  }

  it('shows a thumbnail of an image, from public and private buckets', async () => {
    const started = await startStorage();
    running = started.running;
    const png = await sharp({ create: { width: 2000, height: 1000, channels: 3, background: { r: 200, g: 10, b: 10 } } })
      .png()
      .toBuffer();
    await put(started.port, 'photos', ['big.png'], () => png);
    await put(started.port, 'vault', ['secret.png'], () => png);
    for (const bucket of ['photos', 'vault']) {
      const thumb = await preview(bucket === 'photos' ? 'big.png' : 'secret.png', 'thumbnail', bucket);
      expect(thumb.status).toBe(200);
      expect(thumb.headers.get('content-type')).toBe('image/png');
      expect(await sharp(thumb.body).metadata()).toMatchObject({ width: 960, height: 480 });
    }
  });

  it('never lets an object run as a page of the console', async () => {
    const started = await startStorage();
    running = started.running;
    await put(started.port, 'photos', ['evil.html', 'logo.svg'], (key) =>
      Buffer.from(key.endsWith('.svg') ? '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>' : '<script>alert(1)</script>'),
    );
    for (const key of ['evil.html', 'logo.svg']) {
      const shown = await preview(key, 'original');
      expect(shown.status).toBe(200);
      expect(shown.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(shown.headers.get('content-security-policy')).toContain('sandbox');
      expect(shown.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('passes Range through for text and video, and a poster frame of a video', async () => {
    const started = await startStorage();
    running = started.running;
    const video = join(running.dir, 'clip.mp4');
    await promisify(execFile)('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=10:duration=1',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-y',
      video,
    ]);
    const clip = await readFile(video);
    await put(started.port, 'photos', ['clip.mp4', 'notes.md'], (key) =>
      key === 'clip.mp4' ? clip : Buffer.from('# Notes\n\nsome *text*\n'),
    );

    const head = await preview('notes.md', 'original', 'photos', { Range: 'bytes=0-6' });
    expect(head.status).toBe(206);
    expect(head.body.toString()).toBe('# Notes');
    expect(head.headers.get('content-range')).toBe(`bytes 0-6/${'# Notes\n\nsome *text*\n'.length}`);

    const part = await preview('clip.mp4', 'original', 'photos', { Range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-type')).toBe('video/mp4');
    expect(part.body.equals(clip.subarray(100, 200))).toBe(true);

    const poster = await preview('clip.mp4', 'poster');
    expect(poster.status).toBe(200);
    expect(poster.headers.get('content-type')).toBe('image/jpeg');
    expect(await sharp(poster.body).metadata()).toMatchObject({ format: 'jpeg', width: 960 });
  });

  it('answers 404 for an address that was never given out', async () => {
    const started = await startStorage();
    running = started.running;
    const response = await fetch(`${running.engine.server.url}/console/preview/not-a-ticket`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('expired or never existed');
  });
});
