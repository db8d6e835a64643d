import type { Browser, Page } from 'playwright-core';
import { WebSocket as NodeWebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRelayPage } from '../test/chromium-kit';
import { startRelay, waitFor, type RelayUnderTest } from '../test/relay-test-kit';

/**
 * Chromium watching a stream over WebRTC, the way go2rtc's clients ask for it: WHEP
 * (`application/sdp`, 201 + Location) and the JSON offer. The page is served by the relay, so
 * its requests are same-origin as the console's own.
 */
describe('WebRTC viewers in Chromium', () => {
  let relay: RelayUnderTest;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    relay = await startRelay('  cam: ffmpeg:virtual?video=testsrc&size=320x240#video=h264\n');
    ({ browser, page } = await openRelayPage(relay));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await relay?.stop();
  });

  /** Offers to receive video and audio, posts the offer as `form` says, applies the answer, plays it in a <video>. */
  const watch = (form: 'whep' | 'json') =>
    page.evaluate(async ({ form, url }) => {
      const pc = new RTCPeerConnection();
      pc.addTransceiver('video', { direction: 'recvonly' });
      pc.addTransceiver('audio', { direction: 'recvonly' });
      const video = document.createElement('video');
      video.muted = true;
      video.autoplay = true;
      video.id = form;
      document.body.append(video);
      const tracks: MediaStreamTrack[] = [];
      pc.ontrack = (event) => {
        tracks.push(event.track);
        video.srcObject = new MediaStream(tracks);
      };
      await pc.setLocalDescription(await pc.createOffer());
      await new Promise<void>((resolve) => {
        if (pc.iceGatheringState === 'complete') return resolve();
        pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve());
      });
      const sdp = pc.localDescription!.sdp;
      const response =
        form === 'whep'
          ? await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/sdp' }, body: sdp })
          : await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ type: 'offer', sdp }) });
      const text = await response.text();
      const answer = form === 'whep' ? text : (JSON.parse(text) as { type: string; sdp: string }).sdp;
      await pc.setRemoteDescription({ type: 'answer', sdp: answer });
      (window as unknown as Record<string, RTCPeerConnection>)[`pc_${form}`] = pc;
      return { status: response.status, type: response.headers.get('content-type'), location: response.headers.get('location'), json: form === 'json' ? (JSON.parse(text) as { type: string }).type : undefined };
    }, { form, url: `${relay.api}/api/webrtc?src=cam` });

  const playing = (id: string) =>
    page
      .waitForFunction(
        (videoId) => {
          const video = document.getElementById(videoId) as HTMLVideoElement | null;
          return video && video.videoWidth > 0 && video.currentTime > 1 ? { width: video.videoWidth, height: video.videoHeight, time: video.currentTime } : false;
        },
        id,
        { timeout: 30_000 },
      )
      .then((handle) => handle.jsonValue() as Promise<{ width: number; height: number; time: number }>);

  const consumers = async () =>
    ((await (await fetch(`${relay.api}/api/streams?src=cam`)).json()) as { consumers: Array<{ format_name: string; medias?: string[] }> }).consumers;

  it('WHEP: 201 with the answer and a Location; the picture plays at its size and advances; DELETE ends it and leaves nothing', async () => {
    const posted = await watch('whep');
    expect(posted).toMatchObject({ status: 201, type: 'application/sdp' });
    expect(posted.location).toMatch(/^webrtc\?id=[0-9a-f-]{36}$/);
    const first = await playing('whep');
    expect(first).toMatchObject({ width: 320, height: 240 });
    const later = await playing('whep').then(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      return page.evaluate(() => (document.getElementById('whep') as HTMLVideoElement).currentTime);
    });
    expect(later).toBeGreaterThan(first.time);
    expect(await consumers()).toEqual([expect.objectContaining({ format_name: 'webrtc', medias: ['video, sendonly, H264'] })]);

    const ended = await fetch(new URL(posted.location!, `${relay.api}/api/webrtc`), { method: 'DELETE' });
    expect(ended.status).toBe(200);
    await waitFor(async () => ((await consumers()).length === 0 ? true : undefined));
    expect(await (await fetch(`${relay.api}/api/stack`)).text()).not.toContain('webrtc');
    expect((await fetch(new URL(posted.location!, `${relay.api}/api/webrtc`), { method: 'DELETE' })).status).toBe(404);
  }, 90_000);

  it('the JSON offer gets a JSON answer and plays', async () => {
    const posted = await watch('json');
    expect(posted).toMatchObject({ status: 200, type: 'application/json', json: 'answer' });
    expect(await playing('json')).toMatchObject({ width: 320, height: 240 });
  }, 90_000);

  it("go2rtc's WebSocket API: the offer goes out at once, candidates trickle after it, the answer plays", async () => {
    const result = await page.evaluate(async (url) => {
      const ws = new WebSocket(url);
      await new Promise((resolve, reject) => {
        ws.onopen = resolve;
        ws.onerror = reject;
      });
      const pc = new RTCPeerConnection();
      pc.addTransceiver('video', { direction: 'recvonly' });
      const video = document.createElement('video');
      video.muted = true;
      video.autoplay = true;
      video.id = 'ws';
      document.body.append(video);
      pc.ontrack = (event) => (video.srcObject = new MediaStream([event.track]));
      const received: string[] = [];
      const answered = new Promise<string>((resolve) => {
        ws.onmessage = (event) => {
          const message = JSON.parse(event.data as string) as { type: string; value: string };
          received.push(message.type);
          if (message.type === 'webrtc/answer') resolve(message.value);
        };
      });
      // As go2rtc's player: the offer before gathering ends, each candidate as it comes.
      pc.onicecandidate = (event) => event.candidate && ws.send(JSON.stringify({ type: 'webrtc/candidate', value: event.candidate.candidate }));
      const offer = await pc.createOffer();
      ws.send(JSON.stringify({ type: 'webrtc/offer', value: offer.sdp }));
      await pc.setLocalDescription(offer);
      await pc.setRemoteDescription({ type: 'answer', sdp: await answered });
      ws.send(JSON.stringify({ type: 'hls' }));
      await new Promise((resolve) => setTimeout(resolve, 300));
      (window as unknown as Record<string, WebSocket>).socket = ws;
      return received;
    }, `${relay.api.replace('http', 'ws')}/api/ws?src=cam`);
    expect(result).toEqual(['webrtc/answer', 'error']);
    expect(await playing('ws')).toMatchObject({ width: 320, height: 240 });
    // The session ends with the socket.
    const viewers = async () => (await consumers()).filter((c) => c.format_name === 'webrtc').length;
    const before = await viewers();
    await page.evaluate(() => (window as unknown as Record<string, WebSocket>).socket!.close());
    await waitFor(async () => ((await viewers()) === before - 1 ? true : undefined), 15_000);
  }, 90_000);

  it('bad offers get a 4xx that says why, and leave nothing behind', async () => {
    const post = (src: string, body: string, type = 'application/sdp') => fetch(`${relay.api}/api/webrtc?src=${src}`, { method: 'POST', headers: { 'Content-Type': type }, body });
    const garbage = await post('cam', 'hello');
    expect([garbage.status, await garbage.text()]).toEqual([400, 'the offer is not a usable SDP: not an SDP: no v=0 line\n']);
    expect((await post('nope', 'v=0')).status).toBe(404);
    const vp8 = await post('cam', ['v=0', 'o=- 1 1 IN IP4 127.0.0.1', 's=-', 't=0 0', 'm=video 9 UDP/TLS/RTP/SAVPF 96', 'a=rtpmap:96 VP8/90000', ''].join('\r\n'));
    expect(vp8.status).toBe(400);
    expect(await vp8.text()).toMatch(/it offers video VP8; the relay sends video H264/);
    const json = await post('cam', '{"type":"answer"}', 'application/json');
    expect(json.status).toBe(400);
    expect((await fetch(`${relay.api}/api/webrtc?src=cam`, { method: 'POST', body: 'x', headers: { Origin: 'https://elsewhere.example' } })).status).toBe(403);
    // The WebSocket API refuses pages of other sites too, and says what is wrong with a message.
    const refused = await new Promise<number>((resolve) => {
      const socket = new NodeWebSocket(`${relay.api.replace('http', 'ws')}/api/ws?src=cam`, { headers: { Origin: 'https://elsewhere.example' } });
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      socket.on('open', () => resolve(101));
    });
    expect(refused).toBe(403);
    const errors = await new Promise<string>((resolve) => {
      const socket = new NodeWebSocket(`${relay.api.replace('http', 'ws')}/api/ws?src=nope`);
      socket.on('open', () => socket.send(JSON.stringify({ type: 'webrtc/offer', value: 'v=0' })));
      socket.on('message', (data) => {
        resolve(data.toString());
        socket.close();
      });
    });
    expect(JSON.parse(errors)).toEqual({ type: 'error', value: 'stream not found: nope' });
  });
});
