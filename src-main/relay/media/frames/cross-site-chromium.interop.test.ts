import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { openRelayPage } from '../../test/chromium-kit';
import { startRelay, waitFor, type RelayUnderTest } from '../../test/relay-test-kit';
import { quietFor } from '@main/test-support/time';

// The attack as a browser makes it: a page of another site embeds <img>/<video> whose URL asks
// the relay to open a source of the page's choosing. Chromium sends no Origin for these; the
// relay must still see where they come from and dial nothing.
let relay: RelayUnderTest;
let browser: Browser;
let page: Page;
let attacker: HttpServer;
let attackerPort: number;
let camera: Server;
const sockets: Socket[] = [];
let cameraUrl: string;

beforeAll(async () => {
  camera = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => camera.listen(0, '127.0.0.1', resolve));
  cameraUrl = `rtsp://127.0.0.1:${(camera.address() as AddressInfo).port}/stream1`;
  relay = await startRelay();
  attacker = createHttpServer((req, res) => {
    const target = new URL(req.url ?? '/', 'http://x').searchParams.get('n') ?? '0';
    const src = encodeURIComponent(`${cameraUrl}?attempt=${target}`);
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(
      `<!doctype html><title>some site</title>` +
        `<img id="still" src="${relay.api}/api/frame.jpeg?src=${src}">` +
        `<video id="clip" muted autoplay src="${relay.api}/api/stream.mp4?src=${src}"></video>`,
    );
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerPort = (attacker.address() as AddressInfo).port;
  ({ browser, page } = await openRelayPage(relay));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await relay?.stop();
  attacker?.close();
  for (const socket of sockets) socket.destroy();
  camera?.close();
});

/**
 * Loads a page and waits until Chromium has the relay's final answers for the <img> and the
 * <video> (a redirect, such as Safari's from stream.mp4 to HLS, counts by where it ends).
 */
async function visit(url: string): Promise<{ image: number; video: number }> {
  const answers = new Map<string, number>();
  const listener = (response: { url(): string; status(): number }) => {
    const path = new URL(response.url()).pathname;
    if (response.status() >= 300 && response.status() < 400) return;
    if (path === '/api/frame.jpeg') answers.set('image', response.status());
    if (path === '/api/stream.mp4' || path === '/api/stream.m3u8') answers.set('video', response.status());
  };
  page.on('response', listener);
  try {
    await page.goto(url);
    await waitFor(() => (answers.size === 2 ? true : undefined), 15_000);
  } finally {
    page.off('response', listener);
  }
  return { image: answers.get('image')!, video: answers.get('video')! };
}

describe('a page of another site, in Chromium', () => {
  it('on another host (cross-site) and on another port of this host (same-site): 403, and the camera is never dialed', async () => {
    expect(await visit(`http://localhost:${attackerPort}/?n=1`)).toEqual({ image: 403, video: 403 });
    expect(await visit(`http://127.0.0.1:${attackerPort}/?n=2`)).toEqual({ image: 403, video: 403 });
    // Give a dial that slipped through time to reach the camera.
    await quietFor(300);
    expect(sockets.length).toBe(0);
  });

  it('the same <img> on the relay’s own page does reach the camera (the check above can see a dial)', async () => {
    await page.goto(`${relay.api}/api`);
    await page.evaluate(
      (src) => {
        const image = document.createElement('img');
        image.src = src;
        document.body.append(image);
      },
      `${relay.api}/api/frame.jpeg?src=${encodeURIComponent(`${cameraUrl}?attempt=own`)}`,
    );
    await waitFor(() => (sockets.length > 0 ? true : undefined), 15_000);
  });
});
