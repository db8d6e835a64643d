import { fileURLToPath } from 'node:url';
import { test, expect } from '../fixtures/test';

// hls.js (the player the console uses) playing the relay's HLS in Chromium, both segment kinds:
// MPEG-TS without a filter, fMP4 with `mp4`. hls.js is in its default low-latency mode, so it
// plays the relay's Low-Latency HLS: parts, blocking playlist reloads, preload hints. It runs here, in the browser stage, where Chromium
// has the machine to itself as a viewer's browser would.
const HLS_JS = fileURLToPath(new URL('../../node_modules/hls.js/dist/hls.min.js', import.meta.url));
const SOURCE = 'ffmpeg:virtual?video=testsrc&size=320x240&fps=25&audio#video=h264#audio=aac';

test('hls.js plays the relay HLS in Chromium, MPEG-TS and fMP4, from Low-Latency HLS parts: time advances, picture 320x240', async ({
  page,
  consoleServer,
}) => {
  const created = await fetch(`${consoleServer.url}/api/streams?name=hlscam&src=${encodeURIComponent(SOURCE)}`, { method: 'PUT' });
  expect(created.status).toBe(200);
  // A page of the relay's own origin without the console's CSP (a JSON answer), players written in.
  await page.goto(`${consoleServer.url}/api`);
  await page.setContent(
    '<!doctype html><video id="ts" muted autoplay playsinline></video><video id="fmp4" muted autoplay playsinline></video>',
  );
  await page.addScriptTag({ path: HLS_JS });
  await page.evaluate((api) => {
    interface HlsPlayer {
      on(
        event: string,
        listener: (
          event: string,
          data: { fatal: boolean; details: string; reason?: string; error?: Error; part?: unknown; frag?: { url: string } },
        ) => void,
      ): void;
      loadSource(url: string): void;
      attachMedia(video: HTMLMediaElement): void;
    }
    const w = window as unknown as {
      Hls: { new (): HlsPlayer; Events: { ERROR: string; FRAG_LOADED: string } };
      hlsErrors: string[];
      partsLoaded: Record<string, number>;
    };
    w.hlsErrors = [];
    w.partsLoaded = { ts: 0, fmp4: 0 };
    for (const [id, query] of [
      ['ts', ''],
      ['fmp4', '&mp4'],
    ] as const) {
      const hls = new w.Hls();
      hls.on(w.Hls.Events.ERROR, (_, data) => {
        if (data.fatal) w.hlsErrors.push(`${id}: ${data.details} ${data.reason ?? data.error?.message ?? ''}`);
      });
      // A loaded part (not a whole segment) is what low-latency mode plays from.
      hls.on(w.Hls.Events.FRAG_LOADED, (_, data) => {
        if (data.part) w.partsLoaded[id]! += 1;
      });
      hls.loadSource(`${api}/api/stream.m3u8?src=hlscam${query}`);
      hls.attachMedia(document.getElementById(id) as HTMLVideoElement);
    }
  }, consoleServer.url);

  const state = () =>
    page.evaluate(() =>
      ['ts', 'fmp4'].map((id) => {
        const video = document.getElementById(id) as HTMLVideoElement;
        return { id, time: video.currentTime, size: `${video.videoWidth}x${video.videoHeight}`, error: video.error?.message ?? null };
      }),
    );
  await expect
    .poll(async () => (await state()).every((player) => player.time > 2), { timeout: 40_000, message: 'both players pass 2 s of playback' })
    .toBe(true)
    .catch(async (error: Error) => {
      const errors = await page.evaluate(() => (window as unknown as { hlsErrors: string[] }).hlsErrors);
      throw new Error(`${error.message}\n${JSON.stringify(await state())}\n${errors.join('\n')}`);
    });
  expect(await state()).toEqual([
    { id: 'ts', time: expect.any(Number), size: '320x240', error: null },
    { id: 'fmp4', time: expect.any(Number), size: '320x240', error: null },
  ]);
  expect(await page.evaluate(() => (window as unknown as { hlsErrors: string[] }).hlsErrors)).toEqual([]);
  const parts = await page.evaluate(() => (window as unknown as { partsLoaded: Record<string, number> }).partsLoaded);
  expect(parts.ts).toBeGreaterThan(0);
  expect(parts.fmp4).toBeGreaterThan(0);
});
