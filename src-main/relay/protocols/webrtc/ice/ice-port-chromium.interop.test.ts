import { createSocket, type Socket } from 'node:dgram';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRelayPage, type PeersWindow } from '@main/relay/test/chromium-kit';
import { startRelay, type RelayUnderTest } from '@main/relay/test/relay-test-kit';
import { holdFor } from '@main/test-support/time';
import { bindingSuccess, readStunHeader } from './stun';

/** WHEP in Chromium; resolves with the answer's candidates and, once playing, the remote end of Chromium's chosen pair. */
async function watchOverWhep(page: Page, url: string) {
  return page.evaluate(async (url) => {
    const shownRemotes = async () =>
      (
        ((await (await fetch(url.replace('webrtc', 'streams'))).json()) as { consumers?: Array<{ remote_addr?: string }> }).consumers ?? []
      ).map((c) => c.remote_addr);
    const { peers } = window as unknown as PeersWindow;
    const { pc, video, answer, status } = await peers.offer(url);
    const remotesBefore = await shownRemotes();
    await pc.setRemoteDescription({ type: 'answer', sdp: answer });
    const playing = await peers.played(video);
    // The pair Chromium chose, and its remote end: where the relay's media came from.
    const stats = await pc.getStats();
    let pair: { remoteCandidateId?: string; localCandidateId?: string } = {};
    stats.forEach(
      (report: { type: string; nominated?: boolean; state?: string; remoteCandidateId?: string; localCandidateId?: string }) => {
        if (report.type === 'candidate-pair' && report.nominated && report.state === 'succeeded') pair = report;
      },
    );
    const remote = stats.get(pair.remoteCandidateId ?? '') as { port?: number; protocol?: string } | undefined;
    // What the relay reports as this viewer's address: Chromium's end of the media, not its HTTP request.
    const shown = await shownRemotes();
    pc.close();
    return {
      status,
      candidates: answer.split(/\r?\n/).filter((line) => line.startsWith('a=candidate:')),
      playing: { width: playing.width, time: playing.time },
      remote: { port: remote?.port, protocol: remote?.protocol },
      remotesBefore,
      shownRemotes: shown,
    };
  }, url);
}

describe('ICE on the shared WebRTC port (webrtc.listen)', () => {
  let browser: Browser;
  let page: Page;
  const relays: RelayUnderTest[] = [];
  const source = '  cam: ffmpeg:virtual?video=testsrc&size=320x240#video=h264\n';
  beforeAll(async () => {
    relays.push(await startRelay(source));
    ({ browser, page } = await openRelayPage(relays[0]!));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    for (const relay of relays) await relay.stop();
  });

  it('every viewer meets the relay on one port, over UDP, and plays', async () => {
    const url = `${relays[0]!.api}/api/webrtc?src=cam`;
    const first = await watchOverWhep(page, url);
    const second = await watchOverWhep(page, url);
    for (const viewer of [first, second]) {
      expect(viewer.status).toBe(201);
      expect(viewer.playing.width).toBe(320);
      expect(viewer.playing.time).toBeGreaterThan(0.5);
    }
    const port = Number(/ 127\.0\.0\.1 (\d+) typ host$/.exec(first.candidates[0]!)?.[1]);
    expect(first.candidates).toEqual([
      `a=candidate:11 1 udp 2130706431 127.0.0.1 ${port} typ host`,
      `a=candidate:12 1 tcp 2122317823 127.0.0.1 ${port} typ host tcptype passive`,
    ]);
    expect(second.candidates).toEqual(first.candidates);
    expect(first.remote).toEqual({ port, protocol: 'udp' });
    expect(second.remote).toEqual({ port, protocol: 'udp' });
    // A viewer's address is where its media comes from, once it does, not its HTTP request's.
    const added = second.remotesBefore.filter((remote) => !first.shownRemotes.includes(remote));
    expect(added).toHaveLength(1);
    expect(second.shownRemotes).not.toContain(added[0]);
    expect(second.shownRemotes.filter((remote) => !second.remotesBefore.includes(remote))).toEqual([
      expect.stringMatching(/^\d+\.\d+\.\d+\.\d+:\d+$/),
    ]);
  }, 90_000);

  it("Chromium's consent checks on the pair it plays over are answered, and it keeps playing", async () => {
    const url = `${relays[0]!.api}/api/webrtc?src=cam`;
    /** The page's viewer: the nominated pair's STUN counts, its ICE state and the video's time. */
    const viewerState = () =>
      page.evaluate(async () => {
        const { pc, video } = (window as unknown as { consentViewer: { pc: RTCPeerConnection; video: HTMLVideoElement } }).consentViewer;
        type PairReport = { type: string; id: string; selectedCandidatePairId?: string; responsesReceived?: number; requestsSent?: number };
        // The pair the transport plays over (its state may read in-progress while a check is out).
        const reports = [...(await pc.getStats()).values()] as PairReport[];
        const selected = reports.find((report) => report.type === 'transport')?.selectedCandidatePairId;
        const pair: PairReport = reports.find((report) => report.id === selected) ?? { type: 'none', id: '' };
        return {
          responses: pair.responsesReceived ?? 0,
          requests: pair.requestsSent ?? 0,
          state: pc.iceConnectionState,
          time: video.currentTime,
        };
      });
    await page.evaluate(async (url) => {
      const { peers } = window as unknown as PeersWindow;
      const { pc, video, answer } = await peers.offer(url);
      await pc.setRemoteDescription({ type: 'answer', sdp: answer });
      await peers.played(video);
      (window as unknown as { consentViewer: unknown }).consentViewer = { pc, video };
    }, url);
    // Once the media flows, the relay answers the checks itself (werift's STUN code checks those
    // answers' integrity in consent-answer.test.ts); Chromium checks the pair every 2.5 s or so.
    const before = await viewerState();
    await holdFor(7_000); // a few of Chromium's consent checks
    const after = await viewerState();
    await page.evaluate(() => (window as unknown as { consentViewer: { pc: RTCPeerConnection } }).consentViewer.pc.close());
    expect(after.requests).toBeGreaterThan(before.requests);
    expect(after.responses).toBeGreaterThan(before.responses);
    expect(after.responses).toBeGreaterThanOrEqual(after.requests - 1);
    expect(after.state).toBe('connected');
    expect(after.time - before.time).toBeGreaterThan(5);
  }, 60_000);

  it('with networks: [tcp4] the answer offers ICE-TCP only, on the same port, and the picture comes over it', async () => {
    const relay = await startRelay(source, 'webrtc:\n  listen: 127.0.0.1:0\n  filters:\n    networks: [tcp4]\n');
    relays.push(relay);
    await page.goto(`${relay.api}/api`);
    const viewer = await watchOverWhep(page, `${relay.api}/api/webrtc?src=cam`);
    expect(viewer.candidates).toHaveLength(1);
    expect(viewer.candidates[0]).toMatch(/^a=candidate:12 1 tcp \d+ 127\.0\.0\.1 \d+ typ host tcptype passive$/);
    expect(viewer.playing.width).toBe(320);
    expect(viewer.remote.protocol).toBe('tcp');
  }, 90_000);

  it('configured candidates follow the host ones: a fixed address, and stun: asks a STUN server from the shared port itself', async () => {
    // A STUN server on loopback that answers with the address it saw, as every STUN server does.
    const stun: Socket = createSocket('udp4');
    const seen: number[] = [];
    stun.on('message', (message, from) => {
      const header = readStunHeader(message);
      if (!header) return;
      seen.push(from.port);
      stun.send(bindingSuccess(header.transactionId, from), from.port, from.address);
    });
    await new Promise<void>((resolve) => stun.bind(0, '127.0.0.1', resolve));
    try {
      const relay = await startRelay(
        source,
        `webrtc:\n  listen: 127.0.0.1:0\n  candidates: [203.0.113.7:8555, stun:8555]\n  ice_servers:\n    - urls: [stun:127.0.0.1:${stun.address().port}]\n  filters:\n    networks: [udp4]\n`,
      );
      relays.push(relay);
      const response = await fetch(`${relay.api}/api/webrtc?src=cam`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/sdp' },
        body: await page.evaluate(async () => {
          const pc = new RTCPeerConnection();
          pc.addTransceiver('video', { direction: 'recvonly' });
          const offer = await pc.createOffer();
          pc.close();
          return offer.sdp!;
        }),
      });
      const candidates = (await response.text()).split(/\r?\n/).filter((line) => line.startsWith('a=candidate:'));
      const port = Number(/ 127\.0\.0\.1 (\d+) typ host$/.exec(candidates[0]!)?.[1]);
      expect(candidates).toEqual([
        `a=candidate:11 1 udp 2130706431 127.0.0.1 ${port} typ host`,
        'a=candidate:21 1 udp 2130706175 203.0.113.7 8555 typ host',
        'a=candidate:31 1 udp 2130705919 127.0.0.1 8555 typ host',
      ]);
      expect(seen).toEqual([port]);
      // ICE servers are handed to WHEP clients as the draft says: Link headers.
      expect(response.headers.get('link')).toBe(`<stun:127.0.0.1:${stun.address().port}>; rel="ice-server"`);
    } finally {
      stun.close();
    }
  }, 60_000);
});
