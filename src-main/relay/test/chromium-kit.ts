import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startRelay, type RelayUnderTest } from './relay-test-kit';

/** What a WHEP or JSON offer from the page got back; the answer is not applied yet. */
interface PageOffer {
  pc: RTCPeerConnection;
  video: HTMLVideoElement;
  status: number;
  type: string | null;
  location: string | null;
  /** The SDP answer (from the JSON body for `json`). */
  answer: string;
  /** The response body as it came. */
  body: string;
}

/**
 * Helpers the relay's browser specs share, on `window.peers` of every page `openRelayPage`
 * opens. Inside `page.evaluate`: `(window as unknown as PeersWindow).peers.offer(url)`.
 */
interface PagePeers {
  /** Resolves when the peer connection has gathered its candidates. */
  gathered(pc: RTCPeerConnection): Promise<void>;
  /** A recvonly offer (video; audio too when asked) with every candidate, POSTed as WHEP or go2rtc's JSON; a muted <video> plays what arrives. */
  offer(url: string, options?: { audio?: boolean; form?: 'whep' | 'json'; id?: string }): Promise<PageOffer>;
  /** Resolves when the video has a picture and has played `seconds`, or after `timeoutMs`. */
  played(video: HTMLVideoElement, seconds?: number, timeoutMs?: number): Promise<{ width: number; height: number; time: number }>;
}
export type PeersWindow = Window & { peers: PagePeers };

/** Runs in the page before its own scripts (serialized by playwright: it may use nothing from outside). */
function installPeers(): void {
  const gathered = (pc: RTCPeerConnection) =>
    new Promise<void>((resolve) => {
      if (pc.iceGatheringState === 'complete') return resolve();
      pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve());
    });
  const peers: PagePeers = {
    gathered,
    async offer(url, { audio = false, form = 'whep', id } = {}) {
      const pc = new RTCPeerConnection();
      pc.addTransceiver('video', { direction: 'recvonly' });
      if (audio) pc.addTransceiver('audio', { direction: 'recvonly' });
      const video = document.createElement('video');
      video.muted = true;
      video.autoplay = true;
      if (id) video.id = id;
      document.body.append(video);
      const tracks: MediaStreamTrack[] = [];
      pc.ontrack = (event) => {
        tracks.push(event.track);
        video.srcObject = new MediaStream(tracks);
      };
      await pc.setLocalDescription(await pc.createOffer());
      await gathered(pc);
      const sdp = pc.localDescription!.sdp;
      const response =
        form === 'whep'
          ? await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/sdp' }, body: sdp })
          : await fetch(url, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify({ type: 'offer', sdp }),
            });
      const text = await response.text();
      const answer = form === 'json' && response.ok ? (JSON.parse(text) as { sdp: string }).sdp : text;
      return {
        pc,
        video,
        status: response.status,
        type: response.headers.get('content-type'),
        location: response.headers.get('location'),
        answer,
        body: text,
      };
    },
    async played(video, seconds = 0.5, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!(video.videoWidth > 0 && video.currentTime > seconds) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      return { width: video.videoWidth, height: video.videoHeight, time: video.currentTime };
    },
  };
  (window as unknown as PeersWindow).peers = peers;
}

/** Debian's Chromium as the tests drive it: no background networking (this machine has no internet), autoplay allowed. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--autoplay-policy=no-user-gesture-required',
      ...extraArgs,
    ],
  });
}

/**
 * Debian's Chromium as the tests drive it (no background networking: this machine has no
 * internet), with a page served by the relay, so the page's requests are same-origin with it as
 * the console's own are, and `window.peers` (see PagePeers) in it.
 */
export async function openRelayPage(relay: RelayUnderTest, extraArgs: string[] = []): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchChromium(extraArgs);
  const page = await browser.newPage();
  await page.addInitScript(installPeers);
  await page.goto(`${relay.api}/api`);
  return { browser, page };
}

export interface RelayInChromium {
  relay: RelayUnderTest;
  browser: Browser;
  page: Page;
}

/**
 * A relay with `streams` (the YAML body of `streams:`) and a Chromium page on it, for the specs
 * of one describe block: started before its tests, stopped after them. Read the fields inside tests.
 */
export function relayInChromium(streams: string, extraArgs: string[] = []): RelayInChromium {
  const live = {} as RelayInChromium;
  beforeAll(async () => {
    live.relay = await startRelay(streams);
    Object.assign(live, await openRelayPage(live.relay, extraArgs));
  }, 60_000);
  afterAll(async () => {
    await live.browser?.close();
    await live.relay?.stop();
  });
  return live;
}
