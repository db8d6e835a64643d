import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../test-support/free-port';
import { waitUntil } from '../../test-support/time';
import { launchChromium } from '../test/chromium-kit';
import { frigateMse, frigateWebrtc, socketOpens } from '../test/frigate-live-players';
import { startNginx, type NginxProxy } from '../test/nginx-proxy';
import { startRelay, type RelayUnderTest } from '../test/relay-test-kit';
import { startGstCamera, type GstCamera } from '../protocols/rtsp/test-support/gst-camera';

/**
 * Frigate's live view: its web UI talks to go2rtc through Frigate's own nginx, which forwards
 * `Host: $host` (the name without the port) with the WebSocket upgrade, on the paths below.
 * Here a real nginx with those locations and headers stands in front of the relay, a GStreamer
 * RTSP camera feeds it, and Chromium plays the stream from a page of the proxy's origin with
 * the messages Frigate's players send. A page of another local app (another port) must still be
 * refused, whether the proxy forwards Host with its port or, as Frigate's does, without it: then
 * the relay compares the page with the `X-Forwarded-Host` the proxy sets (go2rtc compares host
 * names only; Chromium sends no Sec-Fetch-Site with a WebSocket handshake to tell them apart).
 */

/** The headers Frigate's nginx sets on everything it passes to go2rtc; `host` is what Host gets. */
const forwarded = (host: string) => `
      proxy_set_header Host ${host};
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection "Upgrade";
      proxy_set_header X-Original-URL $scheme://$http_host$request_uri;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-Host $http_host;
      proxy_set_header X-Forwarded-URI $request_uri;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Real-IP $remote_addr;
      proxy_http_version 1.1;
      proxy_read_timeout 360;`;

/** Frigate's locations that reach go2rtc: the two players' sockets (GET only) and the WebRTC offer (POST only). */
const frigateLocations = (host: string) => `
    location /live/mse/api/ws { limit_except GET { deny all; } proxy_pass http://relay/api/ws; ${forwarded(host)} }
    location /live/webrtc/api/ws { limit_except GET { deny all; } proxy_pass http://relay/api/ws; ${forwarded(host)} }
    location /api/go2rtc/webrtc { limit_except POST { deny all; } proxy_pass http://relay/api/webrtc; ${forwarded(host)} }
    location / { root {root}; try_files $uri /index.html; }`;

describe("Frigate's live view through its nginx", () => {
  let camera: GstCamera;
  let relay: RelayUnderTest;
  let proxy: NginxProxy;
  let browser: Browser;
  /** `frigate`: Frigate's nginx (Host without port); `ported`: a proxy forwarding Host with its port; `app`: another local app's page. */
  const ports = { frigate: 0, ported: 0, app: 0 };
  const origin = (port: number) => `http://127.0.0.1:${port}`;
  const socket = (port: number, player: 'mse' | 'webrtc') => `ws://127.0.0.1:${port}/live/${player}/api/ws?src=cam`;

  beforeAll(async () => {
    camera = await startGstCamera({ size: '320x240' });
    relay = await startRelay(`  cam: ${camera.url}\n`);
    for (const name of Object.keys(ports) as Array<keyof typeof ports>) ports[name] = await freePort();
    proxy = await startNginx({
      ports: Object.values(ports),
      files: { 'index.html': '<!doctype html><html><head><title>live</title></head><body></body></html>' },
      servers: `
  upstream relay { server 127.0.0.1:${new URL(relay.api).port}; keepalive 8; }
  server { listen 127.0.0.1:${ports.frigate}; ${frigateLocations('$host')} }
  server { listen 127.0.0.1:${ports.ported}; ${frigateLocations('$http_host')} }
  server { listen 127.0.0.1:${ports.app}; location / { root {root}; } }`,
    });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await proxy?.stop();
    await relay?.stop();
    await camera?.stop();
  });

  const pageAt = async (port: number): Promise<Page> => {
    const page = await browser.newPage();
    await page.goto(`${origin(port)}/index.html`);
    return page;
  };

  /** Resolves once the video shows a picture and has played `after` seconds: its size and time. */
  const playing = (page: Page, id: string, after = 1) =>
    page
      .waitForFunction(
        ({ id, after }) => {
          const video = document.getElementById(id) as HTMLVideoElement | null;
          return video && video.videoWidth > 0 && video.currentTime > after
            ? { width: video.videoWidth, height: video.videoHeight, time: video.currentTime }
            : false;
        },
        { id, after },
        { timeout: 30_000 },
      )
      .then((handle) => handle.jsonValue() as Promise<{ width: number; height: number; time: number }>);

  const proxied = async (port: number, path: string) => (await proxy.requests()).filter((r) => r.port === port && r.uri.startsWith(path));
  /** nginx logs a proxied WebSocket once it closes: waits for `count` such lines. */
  const loggedSockets = (port: number, path: string, count = 1) =>
    waitUntil(
      async () => {
        const lines = await proxied(port, path);
        return lines.length >= count && lines;
      },
      { timeout: 10_000, interval: 50, what: `nginx to log ${count} request(s) for ${path}` },
    );

  it("MSE: Frigate's player on /live/mse/api/ws gets a MIME type, then fMP4 that plays at the camera's size and advances", async () => {
    const page = await pageAt(ports.frigate);
    const start = await page.evaluate(frigateMse, { url: socket(ports.frigate, 'mse'), id: 'mse' });
    expect(start.messages[0]).toEqual({ type: 'mse', value: expect.stringMatching(/^video\/mp4; codecs="avc1\.[0-9A-Fa-f]{6}/) });
    const first = await playing(page, 'mse');
    expect(first).toMatchObject({ width: 320, height: 240 });
    expect((await playing(page, 'mse', first.time + 1)).time).toBeGreaterThan(first.time + 1);
    await page.close();
    // The upgrade went through the proxy with the page's origin (the proxy's port in it).
    expect(await loggedSockets(ports.frigate, '/live/mse/api/ws')).toEqual([
      expect.objectContaining({ method: 'GET', status: 101, origin: origin(ports.frigate) }),
    ]);
  }, 90_000);

  it("WebRTC: Frigate's player on /live/webrtc/api/ws (offer after setLocalDescription, candidates trickled) plays at the camera's size and advances", async () => {
    const page = await pageAt(ports.frigate);
    const start = await page.evaluate(frigateWebrtc, { url: socket(ports.frigate, 'webrtc'), id: 'rtc' });
    expect(start.messages.map((m) => m.type)).toContain('webrtc/answer');
    const answer = start.messages.find((m) => m.type === 'webrtc/answer')!.value;
    expect(answer).toMatch(/a=rtpmap:\d+ H264\/90000/);
    const first = await playing(page, 'rtc');
    expect(first).toMatchObject({ width: 320, height: 240 });
    expect((await playing(page, 'rtc', first.time + 1)).time).toBeGreaterThan(first.time + 1);
    await page.evaluate(() => (window as unknown as Record<string, RTCPeerConnection>).pc_rtc!.close());
    await page.close();
    expect(await loggedSockets(ports.frigate, '/live/webrtc/api/ws')).toEqual([
      expect.objectContaining({ status: 101, origin: origin(ports.frigate) }),
    ]);
  }, 90_000);

  it('a WebRTC offer POSTed from the page to /api/go2rtc/webrtc is answered through the proxy', async () => {
    const page = await pageAt(ports.frigate);
    const posted = await page.evaluate(async () => {
      const pc = new RTCPeerConnection();
      pc.addTransceiver('video', { direction: 'recvonly' });
      await pc.setLocalDescription(await pc.createOffer());
      const response = await fetch('/api/go2rtc/webrtc?src=cam', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ type: 'offer', sdp: pc.localDescription!.sdp }),
      });
      const body = (await response.json()) as { type: string; sdp: string };
      pc.close();
      return { status: response.status, type: body.type, h264: /H264\/90000/.test(body.sdp) };
    });
    expect(posted).toEqual({ status: 200, type: 'answer', h264: true });
    await page.close();
  }, 30_000);

  it("a page of another local app (another port) is refused on the same proxy paths when Host names the proxy's port", async () => {
    const app = await pageAt(ports.app);
    const own = await pageAt(ports.ported);
    for (const player of ['mse', 'webrtc'] as const) {
      expect(await app.evaluate(socketOpens, socket(ports.ported, player))).toBe('refused');
      // The same socket from the proxy's own page opens: the refusal is the origin's, not the path's.
      expect(await own.evaluate(socketOpens, socket(ports.ported, player))).toBe('open');
    }
    // The relay answered the app's upgrades 403 (nginx passed them on: it refuses nothing by origin).
    const sockets = await loggedSockets(ports.ported, '/live/', 4);
    expect(sockets.filter((r) => r.origin === origin(ports.app)).map((r) => r.status)).toEqual([403, 403]);
    expect(sockets.filter((r) => r.origin === origin(ports.ported)).map((r) => r.status)).toEqual([101, 101]);
    // A write from the app's page (a simple request, so no preflight: it reaches the relay) is
    // refused by the relay, and the page cannot read the answer.
    const write = await app.evaluate(
      async (url) =>
        (await fetch(url, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'v=0' }).catch(() => undefined))?.status ??
        'unreadable',
      `${origin(ports.ported)}/api/go2rtc/webrtc?src=cam`,
    );
    expect(write).toBe('unreadable');
    const posted = (await proxied(ports.ported, '/api/go2rtc/webrtc')).filter((r) => r.origin === origin(ports.app));
    expect(posted).toEqual([expect.objectContaining({ method: 'POST', status: 403 })]);
    await Promise.all([app.close(), own.close()]);
  }, 60_000);

  it("the same page is refused through Frigate's own proxy too (Host without port): the relay reads the X-Forwarded-Host it sets", async () => {
    const app = await pageAt(ports.app);
    const own = await pageAt(ports.frigate);
    for (const player of ['mse', 'webrtc'] as const) {
      expect(await app.evaluate(socketOpens, socket(ports.frigate, player))).toBe('refused');
      expect(await own.evaluate(socketOpens, socket(ports.frigate, player))).toBe('open');
    }
    // The players' own sockets of the tests above are in the same log: wait for the app's two.
    const fromApp = await waitUntil(
      async () => {
        const lines = (await proxied(ports.frigate, '/live/')).filter((r) => r.origin === origin(ports.app));
        return lines.length >= 2 && lines;
      },
      { timeout: 10_000, interval: 50, what: "nginx to log the app page's two sockets" },
    );
    expect(fromApp.map((r) => r.status)).toEqual([403, 403]);
    await Promise.all([app.close(), own.close()]);
  }, 60_000);
});
