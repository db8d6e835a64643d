import type { ChildProcess } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRelayPage } from '../../test/chromium-kit';
import { publishTestPattern, startRelay, waitForMedia, type RelayUnderTest } from '../../test/relay-test-kit';

/**
 * Chromium's own HLS player (`<video src="…m3u8">`, no hls.js), as Safari's has always been and
 * Chromium's is now: it starts at the last three segments of the first playlist, and when playback
 * begins after what it fetched while paused it reloads and needs a segment it has not seen that
 * begins with a keyframe. It reloads at once while it has nothing queued.
 */
describe("Chromium's own HLS player", () => {
  let relay: RelayUnderTest;
  let camera: ChildProcess;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    relay = await startRelay('  cam:\n');
    camera = publishTestPattern(relay.rtspUrl('cam'), 120);
    await waitForMedia(relay, 'cam');
    ({ browser, page } = await openRelayPage(relay));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    camera?.kill('SIGKILL');
    await relay?.stop();
  });

  it('says it plays HLS', async () => {
    expect(await page.evaluate(() => document.createElement('video').canPlayType('application/vnd.apple.mpegurl'))).toBe('maybe');
  });

  it("plays the relay's HLS, MPEG-TS and fMP4: time past 3 s, picture 320x240, a playlist reload per segment", async () => {
    // Why a player gave up, as Chromium's media log says it (its MediaError says only "could not parse").
    const mediaErrors: string[] = [];
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Media.enable');
    cdp.on('Media.playerErrorsRaised', (event) => mediaErrors.push(JSON.stringify(event.errors)));
    const reloads = new Map<string, number>();
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/hls/playlist.m3u8')
        reloads.set(url.searchParams.get('id')!, (reloads.get(url.searchParams.get('id')!) ?? 0) + 1);
    });
    const started = Date.now();
    await page.setContent(
      `<video id="ts" muted autoplay playsinline src="${relay.api}/api/stream.m3u8?src=cam"></video>` +
        `<video id="fmp4" muted autoplay playsinline src="${relay.api}/api/stream.m3u8?src=cam&mp4"></video>`,
    );
    const state = () =>
      page.evaluate(() =>
        ['ts', 'fmp4'].map((id) => {
          const video = document.getElementById(id) as HTMLVideoElement;
          return { id, time: video.currentTime, size: `${video.videoWidth}x${video.videoHeight}`, error: video.error?.message ?? null };
        }),
      );
    await expect
      .poll(async () => (await state()).every((player) => player.time > 3 || player.error), { timeout: 40_000, interval: 250 })
      .toBe(true);
    const seconds = (Date.now() - started) / 1000;
    expect({ players: await state(), mediaErrors }).toEqual({
      players: [
        { id: 'ts', time: expect.any(Number), size: '320x240', error: null },
        { id: 'fmp4', time: expect.any(Number), size: '320x240', error: null },
      ],
      mediaErrors: [],
    });
    // One session per player; about one reload per 1 s segment, not one per round trip.
    expect(reloads.size).toBe(2);
    for (const count of reloads.values()) expect(count).toBeLessThanOrEqual(2 * seconds + 3);
  }, 60_000);
});
