import { WebSocket as NodeWebSocket } from 'ws';
import { describe, expect, it, vi } from 'vitest';
import { relayInChromium, type PeersWindow } from '../../test/chromium-kit';
import { waitFor } from '../../test/relay-test-kit';
import { waitUntil } from '@main/test-support/time';
import { loadRelayNative } from '../../native/native-addon';

/**
 * Chromium watching a stream over WebRTC, the way go2rtc's clients ask for it: WHEP
 * (`application/sdp`, 201 + Location) and the JSON offer. The page is served by the relay, so
 * its requests are same-origin as the console's own.
 */
describe('WebRTC viewers in Chromium', () => {
  const live = relayInChromium('  cam: ffmpeg:virtual?video=testsrc&size=320x240#video=h264\n');

  /** Offers to receive video and audio, posts the offer as `form` says, applies the answer, plays it in a <video>. */
  const watch = (form: 'whep' | 'json', id: string = form) =>
    live.page.evaluate(
      async ({ form, id, url }) => {
        const { pc, answer, status, type, location, body } = await (window as unknown as PeersWindow).peers.offer(url, {
          audio: true,
          form,
          id,
        });
        await pc.setRemoteDescription({ type: 'answer', sdp: answer });
        (window as unknown as Record<string, RTCPeerConnection>)[`pc_${id}`] = pc;
        return { status, type, location, answer, json: form === 'json' ? (JSON.parse(body) as { type: string }).type : undefined };
      },
      { form, id, url: `${live.relay.api}/api/webrtc?src=cam` },
    );

  /** The SRTP profile of a viewer's transport and the keyframes its video asked for (PLI, FIR). */
  const viewerStats = (id: string) =>
    live.page.evaluate(async (id) => {
      const seen = { cipher: '', pli: -1, fir: -1 };
      (await (window as unknown as Record<string, RTCPeerConnection>)[`pc_${id}`]!.getStats()).forEach(
        (report: { type: string; kind?: string; srtpCipher?: string; pliCount?: number; firCount?: number }) => {
          if (report.type === 'transport') seen.cipher = report.srtpCipher ?? '';
          if (report.type === 'inbound-rtp' && report.kind === 'video') Object.assign(seen, { pli: report.pliCount, fir: report.firCount });
        },
      );
      return seen;
    }, id);

  const playing = (id: string) =>
    live.page
      .waitForFunction(
        (videoId) => {
          const video = document.getElementById(videoId) as HTMLVideoElement | null;
          return video && video.videoWidth > 0 && video.currentTime > 1
            ? { width: video.videoWidth, height: video.videoHeight, time: video.currentTime }
            : false;
        },
        id,
        { timeout: 30_000 },
      )
      .then((handle) => handle.jsonValue() as Promise<{ width: number; height: number; time: number }>);

  const consumers = async () =>
    (
      (await (await fetch(`${live.relay.api}/api/streams?src=cam`)).json()) as {
        consumers: Array<{ format_name: string; medias?: string[]; packets_lost?: number; packet_loss?: number }>;
      }
    ).consumers;

  it('WHEP: 201 with the answer and a Location; the picture plays at its size and advances; DELETE ends it and leaves nothing', async () => {
    const posted = await watch('whep');
    expect(posted).toMatchObject({ status: 201, type: 'application/sdp' });
    expect(posted.location).toMatch(/^webrtc\?id=[0-9a-f-]{36}$/);
    const first = await playing('whep');
    expect(first).toMatchObject({ width: 320, height: 240 });
    // The picture advances.
    const later = await live.page
      .waitForFunction(
        (time) => {
          const now = (document.getElementById('whep') as HTMLVideoElement).currentTime;
          return now > time && now;
        },
        first.time,
        { timeout: 30_000 },
      )
      .then((handle) => handle.jsonValue() as Promise<number>);
    expect(later).toBeGreaterThan(first.time);
    expect(await consumers()).toEqual([expect.objectContaining({ format_name: 'webrtc', medias: ['video, sendonly, H264'] })]);
    // The viewer's receiver reports reach /api/streams as its loss; the relay's sender reports reach the viewer.
    const reported = await waitFor(async () => (await consumers()).find((c) => c.packets_lost !== undefined));
    expect(reported).toMatchObject({ packets_lost: expect.any(Number), packet_loss: expect.any(Number) });
    expect(reported.packet_loss).toBeLessThan(50);
    // The relay sends a sender report every few seconds: wait for the first to be counted.
    const senderReports = () =>
      live.page.evaluate(async () => {
        let seen = 0;
        (await (window as unknown as Record<string, RTCPeerConnection>).pc_whep!.getStats()).forEach(
          (report: { type: string; kind?: string }) => {
            if (report.type === 'remote-outbound-rtp' && report.kind === 'video') seen++;
          },
        );
        return seen;
      });
    await vi.waitFor(async () => expect(await senderReports()).toBe(1), { timeout: 10_000, interval: 200 });
    // The relay answered Chromium's actpass as DTLS server and so picked the profile: with the native
    // addon AES-GCM (Chromium as server would have kept AES-CM), without it AES-CM alone.
    expect(/^a=setup:(\S+)/m.exec(posted.answer)?.[1]).toBe('passive');
    const gcm = loadRelayNative()?.srtpGcm === true;
    expect((await viewerStats('whep')).cipher).toBe(gcm ? 'SRTP_AEAD_AES_128_GCM' : 'SRTP_AES128_CM_HMAC_SHA1_80');
    // A viewer joining the running stream starts on its cached GOP, the moment DTLS is up: none of
    // it may reach Chromium before Chromium has the keys (the relay, as server, is up first), or
    // the keyframe is lost and Chromium asks for another.
    const joined = await watch('whep', 'late');
    expect(await playing('late')).toMatchObject({ width: 320, height: 240 });
    expect(await viewerStats('late')).toMatchObject({ pli: 0, fir: 0 });
    expect((await fetch(new URL(joined.location!, `${live.relay.api}/api/webrtc`), { method: 'DELETE' })).status).toBe(200);

    // Trickle on the session resource (RFC 8840 fragments): late candidates 204, an ICE restart 501.
    const patch = (body: string) =>
      fetch(new URL(posted.location!, `${live.relay.api}/api/webrtc`), {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/trickle-ice-sdpfrag' },
        body,
      });
    const ufrag = await live.page.evaluate(
      () => /a=ice-ufrag:(\S+)/.exec((window as unknown as Record<string, RTCPeerConnection>).pc_whep!.localDescription!.sdp)![1]!,
    );
    const late = await patch(
      `a=ice-ufrag:${ufrag}\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=mid:0\r\na=candidate:1 1 udp 2122260223 127.0.0.1 9 typ host\r\na=end-of-candidates\r\n`,
    );
    expect(late.status).toBe(204);
    const restart = await patch('a=ice-ufrag:NEW1\r\na=ice-pwd:aaaaaaaaaaaaaaaaaaaaaaaa\r\n');
    expect([restart.status, await restart.text()]).toEqual([
      501,
      'ICE restarts are not supported: end this session and POST a new offer\n',
    ]);

    const ended = await fetch(new URL(posted.location!, `${live.relay.api}/api/webrtc`), { method: 'DELETE' });
    expect(ended.status).toBe(200);
    await waitFor(async () => ((await consumers()).length === 0 ? true : undefined));
    expect(await (await fetch(`${live.relay.api}/api/stack`)).text()).not.toContain('webrtc');
    expect((await fetch(new URL(posted.location!, `${live.relay.api}/api/webrtc`), { method: 'DELETE' })).status).toBe(404);
  }, 90_000);

  it('the JSON offer gets a JSON answer and plays', async () => {
    const posted = await watch('json');
    expect(posted).toMatchObject({ status: 200, type: 'application/json', json: 'answer' });
    expect(await playing('json')).toMatchObject({ width: 320, height: 240 });
  }, 90_000);

  it("go2rtc's WebSocket API: the offer goes out at once, candidates trickle after it, the answer plays", async () => {
    await live.page.evaluate(
      async (url) => {
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
        pc.onicecandidate = (event) =>
          event.candidate && ws.send(JSON.stringify({ type: 'webrtc/candidate', value: event.candidate.candidate }));
        const offer = await pc.createOffer();
        ws.send(JSON.stringify({ type: 'webrtc/offer', value: offer.sdp }));
        await pc.setLocalDescription(offer);
        await pc.setRemoteDescription({ type: 'answer', sdp: await answered });
        ws.send(JSON.stringify({ type: 'flv' }));
        (window as unknown as Record<string, WebSocket>).socket = ws;
        (window as unknown as Record<string, RTCPeerConnection>).pc_ws = pc;
        (window as unknown as Record<string, string[]>).received_ws = received;
      },
      `${live.relay.api.replace('http', 'ws')}/api/ws?src=cam`,
    );
    // The answer to the flv request (this socket carries WebRTC already).
    const result = await live.page
      .waitForFunction(
        () => {
          const received = (window as unknown as Record<string, string[]>).received_ws!;
          return received.length >= 2 && received;
        },
        undefined,
        { timeout: 10_000 },
      )
      .then((handle) => handle.jsonValue());
    expect(result).toEqual(['webrtc/answer', 'error']);
    expect(await playing('ws')).toMatchObject({ width: 320, height: 240 });
    // As with go2rtc, a connected session outlives its socket and ends with the peer connection.
    const viewers = async () => (await consumers()).filter((c) => c.format_name === 'webrtc').length;
    const before = await viewers();
    await live.page.evaluate(() => (window as unknown as Record<string, WebSocket>).socket!.close());
    const clock = () => live.page.evaluate(() => (document.getElementById('ws') as HTMLVideoElement).currentTime);
    const closedAt = await clock();
    // The picture goes on for half a second and more after the socket closed, the viewer still counted.
    await waitUntil(async () => (await clock()) > closedAt + 0.5, { timeout: 15_000, interval: 100, what: 'the picture to go on' });
    expect(await viewers()).toBe(before);
    expect(await clock()).toBeGreaterThan(closedAt + 0.5);
    await live.page.evaluate(() => (window as unknown as Record<string, RTCPeerConnection>).pc_ws!.close());
    await waitFor(async () => ((await viewers()) === before - 1 ? true : undefined), 15_000);
  }, 90_000);

  /**
   * Chromium as the viewer behind Home Assistant's go2rtc client: the browser's offer (made and
   * set first, video and audio), then each of its candidates as `webrtc/candidate`. `form`:
   * `current`, the client of today (`{"type": "webrtc", "value": {"type": "offer", "sdp",
   * "ice_servers"}}`, answered as an object), or `old`, its first release (October 2024), still
   * in installs that have not updated (`{"type": "webrtc/offer", "value": sdp}`, answered with
   * `webrtc/answer`). Returns the messages received (an object value shown by its type) and the
   * error, if any.
   */
  const watchAsHomeAssistant = (src: string, id: string, form: 'current' | 'old' = 'current') =>
    live.page.evaluate(
      async ({ url, id, form }) => {
        const ws = new WebSocket(url);
        await new Promise((resolve, reject) => {
          ws.onopen = resolve;
          ws.onerror = reject;
        });
        const pc = new RTCPeerConnection();
        pc.addTransceiver('video', { direction: 'recvonly' });
        pc.addTransceiver('audio', { direction: 'recvonly' });
        const video = document.createElement('video');
        video.muted = true;
        video.autoplay = true;
        video.id = id;
        document.body.append(video);
        pc.ontrack = (event) => event.track.kind === 'video' && (video.srcObject = new MediaStream([event.track]));
        const messages: Array<{ type: string; value: unknown }> = [];
        const answered = new Promise<{ sdp: string } | string>((resolve) => {
          ws.onmessage = (event) => {
            const message = JSON.parse(event.data as string) as { type: string; value: { type: string; sdp: string } | string };
            messages.push({
              type: message.type,
              value:
                typeof message.value === 'object' ? { type: message.value.type } : message.type === 'webrtc/answer' ? 'sdp' : message.value,
            });
            if (message.type === 'webrtc' || message.type === 'error') resolve(message.value);
            if (message.type === 'webrtc/answer') resolve({ sdp: message.value as string });
          };
        });
        pc.onicecandidate = (event) =>
          event.candidate && ws.send(JSON.stringify({ type: 'webrtc/candidate', value: event.candidate.candidate }));
        const offer = await pc.createOffer();
        await pc.setLocalDescription(offer);
        ws.send(
          JSON.stringify(
            form === 'current'
              ? { type: 'webrtc', value: { type: 'offer', sdp: offer.sdp, ice_servers: [{ urls: ['stun:stun.home-assistant.io:3478'] }] } }
              : { type: 'webrtc/offer', value: offer.sdp },
          ),
        );
        const answer = await answered;
        if (typeof answer === 'string') return { messages, error: answer };
        await pc.setRemoteDescription({ type: 'answer', sdp: answer.sdp });
        (window as unknown as Record<string, RTCPeerConnection>)[`pc_${id}`] = pc;
        return { messages, error: null };
      },
      { url: `${live.relay.api.replace('http', 'ws')}/api/ws?src=${encodeURIComponent(src)}`, id, form },
    );

  it("Home Assistant's WebSocket form: an object offer with ice_servers and trickled candidates is answered as an object, also for a camera URL as src", async () => {
    const named = await watchAsHomeAssistant('cam', 'ha');
    expect(named.error).toBeNull();
    expect(named.messages[0]).toEqual({ type: 'webrtc', value: { type: 'answer' } });
    expect(await playing('ha')).toMatchObject({ width: 320, height: 240 });

    // The WebRTC camera card configured with a camera's url: a temporary stream while it plays.
    const byUrl = await watchAsHomeAssistant(live.relay.rtspUrl('cam'), 'ha-url');
    expect(byUrl.error).toBeNull();
    expect(await playing('ha-url')).toMatchObject({ width: 320, height: 240 });
    const listed = (await (await fetch(`${live.relay.api}/api/streams`)).json()) as Record<string, unknown>;
    expect(Object.keys(listed)).toContain(live.relay.rtspUrl('cam'));
    await live.page.evaluate(() => (window as unknown as Record<string, RTCPeerConnection>)['pc_ha-url']!.close());
    await waitUntil(
      async () => !Object.keys((await (await fetch(`${live.relay.api}/api/streams`)).json()) as object).includes(live.relay.rtspUrl('cam')),
      { timeout: 15_000, interval: 200, what: 'the temporary stream to go' },
    );

    // What HA maps to a failed offer: {"type": "error", "value": "<why>"}.
    const unknown = await watchAsHomeAssistant('nope', 'ha-nope');
    expect(unknown.error).toBe('stream not found: nope');
  }, 90_000);

  it("Home Assistant's first WebSocket form: webrtc/offer after the browser set its offer, candidates trickled, answered with webrtc/answer that plays", async () => {
    const old = await watchAsHomeAssistant('cam', 'ha-old', 'old');
    expect(old.error).toBeNull();
    // The answer is the first message, an SDP string, and nothing else was sent for the offer.
    expect(old.messages).toEqual([{ type: 'webrtc/answer', value: 'sdp' }]);
    expect(await playing('ha-old')).toMatchObject({ width: 320, height: 240 });
    await live.page.evaluate(() => (window as unknown as Record<string, RTCPeerConnection>)['pc_ha-old']!.close());
    const unknown = await watchAsHomeAssistant('nope', 'ha-old-nope', 'old');
    expect(unknown).toEqual({ messages: [{ type: 'error', value: 'stream not found: nope' }], error: 'stream not found: nope' });
  }, 90_000);

  it('an H.264 offer without fmtp lines (minimal WHEP clients) is answered and the viewer counted, not refused', async () => {
    // Chromium's own offer (for its ICE and DTLS lines) with every fmtp line taken out, as a
    // script or a minimal client writes it.
    const sdp = await live.page.evaluate(async () => {
      const pc = new RTCPeerConnection();
      pc.addTransceiver('video', { direction: 'recvonly' });
      const offer = await pc.createOffer();
      pc.close();
      return offer
        .sdp!.split('\r\n')
        .filter((line) => !line.startsWith('a=fmtp:'))
        .join('\r\n');
    });
    expect(sdp).not.toContain('a=fmtp:');
    const posted = await fetch(`${live.relay.api}/api/webrtc?src=cam`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/sdp' },
      body: sdp,
    });
    expect(posted.status).toBe(201);
    const answer = await posted.text();
    expect(answer).toMatch(/a=rtpmap:\d+ H264\/90000/);
    expect(await consumers()).toContainEqual(expect.objectContaining({ format_name: 'webrtc', medias: ['video, sendonly, H264'] }));
    expect((await fetch(new URL(posted.headers.get('location')!, `${live.relay.api}/api/webrtc`), { method: 'DELETE' })).status).toBe(200);
  });

  it('WHEP takes a camera URL as src: a temporary stream while the session lasts', async () => {
    const sdp = await live.page.evaluate(async () => {
      const pc = new RTCPeerConnection();
      pc.addTransceiver('video', { direction: 'recvonly' });
      const offer = await pc.createOffer();
      pc.close();
      return offer.sdp!;
    });
    const source = live.relay.rtspUrl('cam');
    const posted = await fetch(`${live.relay.api}/api/webrtc?src=${encodeURIComponent(source)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/sdp' },
      body: sdp,
    });
    expect(posted.status).toBe(201);
    const streams = async () => Object.keys((await (await fetch(`${live.relay.api}/api/streams`)).json()) as object);
    expect(await streams()).toContain(source);
    expect((await fetch(new URL(posted.headers.get('location')!, `${live.relay.api}/api/webrtc`), { method: 'DELETE' })).status).toBe(200);
    await waitUntil(async () => !(await streams()).includes(source), {
      timeout: 10_000,
      interval: 100,
      what: 'the temporary stream to go',
    });
  });

  it('bad offers get a 4xx that says why, and leave nothing behind', async () => {
    const post = (src: string, body: string, type = 'application/sdp') =>
      fetch(`${live.relay.api}/api/webrtc?src=${src}`, { method: 'POST', headers: { 'Content-Type': type }, body });
    const garbage = await post('cam', 'hello');
    expect([garbage.status, await garbage.text()]).toEqual([400, 'the offer is not a usable SDP: not an SDP: no v=0 line\n']);
    expect((await post('nope', 'v=0')).status).toBe(404);
    const vp8 = await post(
      'cam',
      ['v=0', 'o=- 1 1 IN IP4 127.0.0.1', 's=-', 't=0 0', 'm=video 9 UDP/TLS/RTP/SAVPF 96', 'a=rtpmap:96 VP8/90000', ''].join('\r\n'),
    );
    expect(vp8.status).toBe(400);
    // The error names both sides: what the stream has and what the offer has.
    expect(await vp8.text()).toBe(
      'codecs not matched: the source has video H264; this output accepts video VP8 (the offer has video VP8)\n',
    );
    const g722 = await post(
      'cam',
      ['v=0', 'o=- 1 1 IN IP4 127.0.0.1', 's=-', 't=0 0', 'm=audio 9 UDP/TLS/RTP/SAVPF 9', 'a=rtpmap:9 G722/8000', ''].join('\r\n'),
    );
    expect([g722.status, await g722.text()]).toEqual([
      400,
      'no codec of the offer can be sent: it offers audio G722; the relay sends video H264 (packetization-mode 1), H265, VP8, VP9 or AV1, audio OPUS, PCMA or PCMU\n',
    ]);
    const json = await post('cam', '{"type":"answer"}', 'application/json');
    expect(json.status).toBe(400);
    expect(
      (await fetch(`${live.relay.api}/api/webrtc?src=cam`, { method: 'POST', body: 'x', headers: { Origin: 'https://elsewhere.example' } }))
        .status,
    ).toBe(403);
    // The WebSocket API refuses pages of other sites too, and says what is wrong with a message.
    const refused = await new Promise<number>((resolve) => {
      const socket = new NodeWebSocket(`${live.relay.api.replace('http', 'ws')}/api/ws?src=cam`, {
        headers: { Origin: 'https://elsewhere.example' },
      });
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      socket.on('open', () => resolve(101));
    });
    expect(refused).toBe(403);
    const errors = await new Promise<string>((resolve) => {
      const socket = new NodeWebSocket(`${live.relay.api.replace('http', 'ws')}/api/ws?src=nope`);
      socket.on('open', () => socket.send(JSON.stringify({ type: 'webrtc/offer', value: 'v=0' })));
      socket.on('message', (data) => {
        resolve(data.toString());
        socket.close();
      });
    });
    expect(JSON.parse(errors)).toEqual({ type: 'error', value: 'stream not found: nope' });
  });
});
