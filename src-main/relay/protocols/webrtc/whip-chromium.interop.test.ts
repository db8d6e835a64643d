import { describe, expect, it } from 'vitest';
import { relayInChromium, type PeersWindow } from '../../test/chromium-kit';
import { countFrames, probe, waitFor } from '../../test/relay-test-kit';

interface StreamInfo {
  producers: Array<{ format_name?: string; medias?: string[]; bytes_recv?: number }>;
  consumers: unknown[];
}

/**
 * Chromium's fake camera and microphone publishing into a stream over WHIP, as a browser page
 * (go2rtc's "camera+microphone" link) or an encoder does; RTSP readers get what it sends.
 */
describe('WHIP publishing from Chromium', () => {
  const live = relayInChromium('  door:\n  lobby:\n', ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream']);

  const streamInfo = async (name: string) => (await (await fetch(`${live.relay.api}/api/streams?src=${name}`)).json()) as StreamInfo;

  /** Publishes the fake camera and microphone into `dst`, video in `codec` when given (else Chromium's order). */
  const publish = (dst: string, codec?: string) =>
    live.page.evaluate(
      async ({ url, codec, dst }) => {
        const media = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 480 }, audio: true });
        const pc = new RTCPeerConnection();
        for (const track of media.getTracks()) {
          const transceiver = pc.addTransceiver(track, { direction: 'sendonly' });
          const codecs = RTCRtpSender.getCapabilities(track.kind)?.codecs ?? [];
          if (codec && track.kind === 'video') transceiver.setCodecPreferences(codecs.filter((c) => c.mimeType === `video/${codec}`));
        }
        await pc.setLocalDescription(await pc.createOffer());
        await (window as unknown as PeersWindow).peers.gathered(pc);
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/sdp' },
          body: pc.localDescription!.sdp,
        });
        const answer = await response.text();
        await pc.setRemoteDescription({ type: 'answer', sdp: answer });
        await new Promise<void>((resolve) => {
          if (pc.connectionState === 'connected') return resolve();
          pc.addEventListener('connectionstatechange', () => pc.connectionState === 'connected' && resolve());
        });
        (window as unknown as Record<string, RTCPeerConnection>)[`publisher_${dst}`] = pc;
        return {
          status: response.status,
          location: response.headers.get('location'),
          video: /^a=rtpmap:\d+ (\w+)\/90000/m.exec(answer.split('m=video')[1] ?? '')?.[1],
        };
      },
      { url: `${live.relay.api}/api/webrtc?dst=${dst}`, codec, dst },
    );

  /** Watches `src` over WHEP in the same page; resolves with the picture's size once it plays. */
  const watch = (src: string) =>
    live.page.evaluate(async (url) => {
      const { peers } = window as unknown as PeersWindow;
      const { pc, video, answer } = await peers.offer(url);
      await pc.setRemoteDescription({ type: 'answer', sdp: answer });
      const { width, height } = await peers.played(video);
      pc.close();
      return { width, height, codec: /^a=rtpmap:\d+ (\w+)\/90000/m.exec(answer)?.[1] };
    }, `${live.relay.api}/api/webrtc?src=${src}`);

  it('the published camera is a producer of the stream, read back over RTSP and WebRTC at its size, until DELETE ends it', async () => {
    const published = await publish('door');
    expect(published.status).toBe(201);
    expect(published.location).toMatch(/^webrtc\?id=[0-9a-f-]{36}$/);
    // H.264 is what every output of the relay takes; Chromium offers it, so the answer picks it.
    expect(published.video).toBe('H264');

    const producers = await waitFor(async () => {
      const { producers } = await streamInfo('door');
      return producers.some((p) => (p.bytes_recv ?? 0) > 0) ? producers : undefined;
    }, 15_000);
    expect(producers).toEqual([
      expect.objectContaining({
        format_name: 'webrtc',
        medias: ['audio, recvonly, OPUS', 'video, recvonly, H264'],
        packets_lost: expect.any(Number),
      }),
    ]);

    const streams = await probe(live.relay.rtspUrl('door'));
    expect(streams).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ codec_type: 'video', codec_name: 'h264', width: 640, height: 480 }),
        expect.objectContaining({ codec_type: 'audio', codec_name: 'opus' }),
      ]),
    );
    // Frames keep coming: ffmpeg decodes most of what 2 s of a 30 fps camera sends.
    expect(await countFrames(live.relay.rtspUrl('door'), 2)).toBeGreaterThan(30);
    expect(await watch('door')).toEqual({ width: 640, height: 480, codec: 'H264' });

    const ended = await fetch(new URL(published.location!, `${live.relay.api}/api/webrtc`), { method: 'DELETE' });
    expect(ended.status).toBe(200);
    await waitFor(async () => ((await streamInfo('door')).producers.length === 0 ? true : undefined));
    expect(await (await fetch(`${live.relay.api}/api/stack`)).text()).not.toContain('webrtc');
  }, 90_000);

  it('a VP8 publisher is passed through as VP8: WebRTC viewers get it as sent', async () => {
    const published = await publish('lobby', 'VP8');
    expect(published.video).toBe('VP8');
    expect(await watch('lobby')).toEqual({ width: 640, height: 480, codec: 'VP8' });
    await live.page.evaluate(() => (window as unknown as Record<string, RTCPeerConnection>).publisher_lobby!.close());
    await waitFor(async () => ((await streamInfo('lobby')).producers.length === 0 ? true : undefined), 40_000);
  }, 90_000);

  it('bad publishing offers: no usable codec, unknown stream, trickle to an unknown session', async () => {
    const post = (dst: string, body: string) =>
      fetch(`${live.relay.api}/api/webrtc?dst=${dst}`, { method: 'POST', headers: { 'Content-Type': 'application/sdp' }, body });
    const g722 = await post(
      'door',
      ['v=0', 'o=- 1 1 IN IP4 127.0.0.1', 's=-', 't=0 0', 'm=audio 9 UDP/TLS/RTP/SAVPF 9', 'a=rtpmap:9 G722/8000', 'a=sendonly', ''].join(
        '\r\n',
      ),
    );
    expect([g722.status, await g722.text()]).toEqual([
      400,
      'no codec of the offer can be published: it offers audio G722; the relay takes video H264 (packetization-mode 1), H265, VP8, VP9 or AV1, audio OPUS, PCMA or PCMU\n',
    ]);
    expect((await post('nope', 'v=0')).status).toBe(404);
    const patch = await fetch(`${live.relay.api}/api/webrtc?id=00000000-0000-0000-0000-000000000000`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/trickle-ice-sdpfrag' },
      body: 'a=end-of-candidates',
    });
    expect(patch.status).toBe(404);
    expect((await streamInfo('door')).producers).toEqual([]);
  });
});
