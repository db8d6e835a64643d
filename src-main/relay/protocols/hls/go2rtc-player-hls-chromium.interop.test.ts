import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRelayPage } from '../../test/chromium-kit';
import { publishTestPattern, startRelay, waitForMedia, type RelayUnderTest } from '../../test/relay-test-kit';

/**
 * go2rtc's own player (www/stream.html, video-rtc.js, video-stream.js) against the relay with
 * `?src=cam&mode=hls`, read from a go2rtc checkout on this machine (a work tree, or a bare
 * mirror read with git) when there is one: its files are go2rtc's, never the project's.
 */
const GO2RTC = process.env.GO2RTC_SOURCE ?? '/work/.mirror/AlexxIT+go2rtc/repo';
const present = existsSync(GO2RTC);

function go2rtcFile(name: string): string {
  const inTree = join(GO2RTC, 'www', name);
  return existsSync(inTree)
    ? readFileSync(inTree, 'utf8')
    : execFileSync('git', ['-C', GO2RTC, 'show', `HEAD:www/${name}`], { encoding: 'utf8' });
}

/** How video-rtc.js hands the master playlist to the video, and the same playlist as a blob: URL. */
const DATA_URL = "'data:application/vnd.apple.mpegurl;base64,' + btoa(playlist)";
const BLOB_URL = "URL.createObjectURL(new Blob([playlist], {type: 'application/vnd.apple.mpegurl'}))";

describe.skipIf(!present)(
  `go2rtc's player in hls mode, in Chromium${present ? '' : ` (skipped: no go2rtc checkout at ${GO2RTC}; set GO2RTC_SOURCE)`}`,
  () => {
    let relay: RelayUnderTest;
    let camera: ChildProcess;
    let browser: Browser;
    let files: Record<'stream.html' | 'video-rtc.js' | 'video-stream.js', string>;

    beforeAll(async () => {
      files = {
        'stream.html': go2rtcFile('stream.html'),
        'video-rtc.js': go2rtcFile('video-rtc.js'),
        'video-stream.js': go2rtcFile('video-stream.js'),
      };
      relay = await startRelay('  cam:\n');
      camera = publishTestPattern(relay.rtspUrl('cam'), 120);
      await waitForMedia(relay, 'cam');
      ({ browser } = await openRelayPage(relay));
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      camera?.kill('SIGKILL');
      await relay?.stop();
    });

    /**
     * stream.html on a page of the relay's origin (its `api/ws` is the relay's), with `videoRtc` as
     * video-rtc.js; what went over its WebSocket, the media playlist requests and Chromium's media
     * errors are noted.
     */
    async function openPlayer(videoRtc: string) {
      const page = await browser.newPage();
      const seen = { sent: [] as string[], received: [] as string[], playlists: 0, mediaErrors: [] as string[] };
      page.on('websocket', (socket) => {
        socket.on('framesent', (frame) => typeof frame.payload === 'string' && seen.sent.push(frame.payload));
        socket.on('framereceived', (frame) => typeof frame.payload === 'string' && seen.received.push(frame.payload));
      });
      page.on('request', (request) => new URL(request.url()).pathname === '/api/hls/playlist.m3u8' && seen.playlists++);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Media.enable');
      cdp.on('Media.playerErrorsRaised', (event) => seen.mediaErrors.push(JSON.stringify(event.errors)));
      await page.route(`${relay.api}/video-rtc.js`, (route) => route.fulfill({ body: videoRtc, contentType: 'text/javascript' }));
      await page.route(`${relay.api}/video-stream.js`, (route) =>
        route.fulfill({ body: files['video-stream.js'], contentType: 'text/javascript' }),
      );
      await page.goto(`${relay.api}/api?src=cam&mode=hls`);
      await page.setContent(files['stream.html']);
      return { page, seen };
    }

    const videoState = (page: Page) =>
      page.evaluate(() => {
        const video = document.querySelector('video');
        return {
          time: video?.currentTime ?? 0,
          size: `${video?.videoWidth ?? 0}x${video?.videoHeight ?? 0}`,
          error: video?.error?.message ?? null,
          src: video?.src.slice(0, 5) ?? '',
        };
      });

    it('as it is: asks for hls over the WebSocket and gets a master playlist, which it gives Chromium as a data: URL that Chromium reads nothing from', async () => {
      expect(files['video-rtc.js']).toContain(DATA_URL);
      const { page, seen } = await openPlayer(files['video-rtc.js']);
      await expect.poll(async () => (await videoState(page)).error ?? (await videoState(page)).time > 3, { timeout: 20_000 }).toBeTruthy();
      // Chromium has HLS but the page has MSE: go2rtc's player picks hls only because the URL says so.
      expect(JSON.parse(seen.sent[0]!)).toEqual({ type: 'hls', value: expect.stringMatching(/avc1\.640029.*mp4a\.40\.2/) });
      const answer = JSON.parse(seen.received.find((text) => text.includes('"hls"'))!) as { value: string };
      expect(answer.value).toMatch(
        /^#EXTM3U\n[^]*CODECS="avc1\.42c0[0-9a-f]{2},mp4a\.40\.2",RESOLUTION=320x240\nhls\/playlist\.m3u8\?id=[\w-]+\n$/i,
      );
      // Chromium's HLS stops at the data: URL before any request (its media log: "Network read stopped").
      expect(await videoState(page)).toEqual({
        time: 0,
        size: '0x0',
        error: 'PipelineStatus::DEMUXER_ERROR_COULD_NOT_PARSE',
        src: 'data:',
      });
      // The media log's events arrive after the element's error; a loaded machine takes a while.
      await expect.poll(() => seen.mediaErrors.join(), { timeout: 10_000 }).toContain('HlsDemuxerStatus::Network read stopped');
      expect(seen.playlists).toBe(0);
      await page.close();
    }, 40_000);

    it("with the master playlist as a blob: URL instead (one expression of video-rtc.js): plays past 3 s at 320x240 from the relay's HLS", async () => {
      const { page, seen } = await openPlayer(files['video-rtc.js'].replace(DATA_URL, BLOB_URL));
      await expect.poll(async () => (await videoState(page)).error ?? (await videoState(page)).time > 3, { timeout: 30_000 }).toBe(true);
      expect({ state: await videoState(page), mediaErrors: seen.mediaErrors }).toEqual({
        state: { time: expect.any(Number), size: '320x240', error: null, src: 'blob:' },
        mediaErrors: [],
      });
      expect(seen.playlists).toBeGreaterThan(1);
      const consumers = ((await (await fetch(`${relay.api}/api/streams?src=cam`)).json()) as { consumers: Array<{ format_name: string }> })
        .consumers;
      expect(consumers.map((c) => c.format_name)).toContain('hls/fmp4');
      await page.close();
    }, 40_000);
  },
);
