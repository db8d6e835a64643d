import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRelayPage } from '../../test/chromium-kit';
import { startRelay, waitFor, type RelayUnderTest } from '../../test/relay-test-kit';
import { playedPast, readVideo } from '../../test/video-playback';
import { startGstCamera, type GstCamera } from '../rtsp/test-support/gst-camera';

/**
 * stream.mp4 played by Chromium as a browser plays a plain URL: a <video src> on the relay's
 * origin, and the URL opened in a tab (Chromium's media document). Headless Chromium says
 * `HeadlessChrome/… Safari/…`; it must get the MP4, not Safari's redirect to HLS.
 */
describe('stream.mp4 in Chromium, progressive playback', () => {
  let camera: GstCamera;
  let relay: RelayUnderTest;
  let browser: Browser;
  let page: Page;
  /** The answers Chromium got for stream.mp4, as the page saw them. */
  const answers: Array<{ status: number; type: string | undefined; range: string | undefined }> = [];

  beforeAll(async () => {
    camera = await startGstCamera({ size: '320x240' });
    relay = await startRelay(
      `  cam: ${camera.url}\n  pattern: ffmpeg:virtual?video=testsrc&size=320x240&fps=25&audio#video=h264#audio=aac\n`,
    );
    ({ browser, page } = await openRelayPage(relay));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await relay?.stop();
    await camera?.stop();
  });

  /** A page of the relay's origin (its JSON API answer) with the stream.mp4 answers recorded. */
  async function relayPage(): Promise<Page> {
    const opened = await browser.newPage();
    opened.on('response', (response) => {
      if (!response.url().includes('/api/stream.mp4')) return;
      answers.push({ status: response.status(), type: response.headers()['content-type'], range: response.request().headers()['range'] });
    });
    return opened;
  }

  it("plays a GStreamer camera's stream.mp4 in a <video> of the relay's origin: time passes 2 s at 320x240, no error", async () => {
    expect(await page.evaluate(() => navigator.userAgent)).toContain('HeadlessChrome/');
    const viewer = await relayPage();
    await viewer.goto(`${relay.api}/api`);
    await viewer.setContent('<!doctype html><video muted autoplay playsinline></video>');
    await viewer.evaluate((url) => (document.querySelector('video')!.src = url), `${relay.api}/api/stream.mp4?src=cam`);
    const state = await playedPast(() => viewer.evaluate(readVideo), 2);
    expect(state).toMatchObject({ size: '320x240', error: null });
    // Chromium asked from byte 0 and got the MP4 itself (no redirect), with its codecs.
    expect(answers).toContainEqual({
      status: 200,
      type: expect.stringMatching(/^video\/mp4; codecs="avc1\.[0-9A-F]{6}"$/),
      range: 'bytes=0-',
    });
    expect(answers.map((a) => a.status)).not.toContain(301);
    await viewer.close();
  }, 60_000);

  it('plays when the URL is opened in a tab: the video of Chromium’s media document passes 2 s at 320x240', async () => {
    const tab = await relayPage();
    await tab.goto(`${relay.api}/api/stream.mp4?src=cam`, { waitUntil: 'commit' });
    const state = await playedPast(() => tab.evaluate(readVideo), 2);
    expect(state).toMatchObject({ size: '320x240', error: null });
    expect(
      await tab.evaluate(() => document.querySelector('video source')?.getAttribute('src') ?? document.querySelector('video')?.src),
    ).toBe(`${relay.api}/api/stream.mp4?src=cam`);
    await tab.close();
  }, 60_000);

  it('plays H.264 with AAC: the picture moves and the sound decodes', async () => {
    const viewer = await relayPage();
    await viewer.goto(`${relay.api}/api`);
    await viewer.setContent('<!doctype html><video muted autoplay playsinline></video>');
    await viewer.evaluate((url) => (document.querySelector('video')!.src = url), `${relay.api}/api/stream.mp4?src=pattern`);
    const state = await playedPast(() => viewer.evaluate(readVideo), 2);
    expect(state).toMatchObject({ size: '320x240', error: null });
    expect(state.audio).toBeGreaterThan(0);
    await viewer.close();
  }, 60_000);

  it('sends a Content-Type whose codecs Chromium says it plays, progressively and in a MediaSource', async () => {
    for (const src of ['cam', 'pattern']) {
      const response = await fetch(`${relay.api}/api/stream.mp4?src=${src}`, { method: 'HEAD' });
      const type = response.headers.get('content-type')!;
      expect(type).toMatch(
        src === 'cam' ? /^video\/mp4; codecs="avc1\.[0-9A-F]{6}"$/ : /^video\/mp4; codecs="avc1\.[0-9A-F]{6},mp4a\.40\.2"$/,
      );
      const verdict = await page.evaluate(
        (t) => ({ element: document.createElement('video').canPlayType(t), mse: MediaSource.isTypeSupported(t) }),
        type,
      );
      expect(verdict, type).toEqual({ element: 'probably', mse: true });
    }
  }, 30_000);

  it('answers a Range with the whole live stream from its start (200, Accept-Ranges: none, no Content-Range)', async () => {
    for (const range of ['bytes=0-', 'bytes=5000-', 'bytes=0-99']) {
      const abort = new AbortController();
      const response = await fetch(`${relay.api}/api/stream.mp4?src=cam`, { headers: { Range: range }, signal: abort.signal });
      expect(response.status, range).toBe(200);
      expect(response.headers.get('accept-ranges'), range).toBe('none');
      expect(response.headers.get('content-range'), range).toBeNull();
      expect(response.headers.get('content-length'), range).toBeNull();
      // The body still begins with the file's first box, whatever byte was asked for.
      const reader = response.body!.getReader();
      let head = new Uint8Array();
      while (head.length < 8) {
        const { value, done } = await reader.read();
        if (done) break;
        head = new Uint8Array([...head, ...value]);
      }
      expect(Buffer.from(head.subarray(4, 8)).toString('latin1'), range).toBe('ftyp');
      abort.abort();
    }
    const viewers = async () =>
      ((await (await fetch(`${relay.api}/api/streams?src=cam`)).json()) as { consumers: unknown[] }).consumers.length;
    await waitFor(async () => ((await viewers()) === 0 ? true : undefined), 15_000);
  }, 30_000);
});
