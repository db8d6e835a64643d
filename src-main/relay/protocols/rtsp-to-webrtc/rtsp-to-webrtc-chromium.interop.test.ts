import { describe, expect, it } from 'vitest';
import { relayInChromium, type PeersWindow } from '../../test/chromium-kit';
import { waitFor } from '../../test/relay-test-kit';

/**
 * Home Assistant's RTSPtoWebRTC integration, request by request: the health checks, `add` with
 * the camera's RTSP URL, then the base64 offer in a form, the base64 answer back; Chromium plays
 * what the answer sets up.
 */
describe('RTSPtoWebRTC API, as Home Assistant calls it', () => {
  const live = relayInChromium('  cam: ffmpeg:virtual?video=testsrc&size=320x240#video=h264\n');

  const add = (id: string, url: string) =>
    fetch(`${live.relay.api}/stream/${encodeURIComponent(id)}/add`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: id, channels: { '0': { name: 'ch1', url } } }),
    });

  /** The integration's offer step, from the page: the offer base64 in a form, the answer base64 back; resolves once it plays. */
  const watch = (id: string) =>
    live.page.evaluate(
      async (url) => {
        const { peers } = window as unknown as PeersWindow;
        const pc = new RTCPeerConnection();
        pc.addTransceiver('video', { direction: 'recvonly' });
        pc.addTransceiver('audio', { direction: 'recvonly' });
        const video = document.createElement('video');
        video.muted = true;
        video.autoplay = true;
        document.body.append(video);
        pc.ontrack = (event) => (video.srcObject = new MediaStream([event.track]));
        await pc.setLocalDescription(await pc.createOffer());
        await peers.gathered(pc);
        const response = await fetch(url, { method: 'POST', body: new URLSearchParams({ data: btoa(pc.localDescription!.sdp) }) });
        const body = await response.text();
        if (!response.ok) return { status: response.status, body };
        await pc.setRemoteDescription({ type: 'answer', sdp: atob(body) });
        const played = await peers.played(video);
        pc.close();
        return { status: response.status, width: played.width, height: played.height };
      },
      `${live.relay.api}/stream/${encodeURIComponent(id)}/channel/0/webrtc`,
    );

  it('answers the health checks as RTSPtoWebRTC does', async () => {
    for (const path of ['/static', '/streams']) {
      const response = await fetch(`${live.relay.api}${path}`);
      expect([response.status, await response.json()]).toEqual([200, { status: 1, payload: {} }]);
    }
  });

  it("a camera added with the relay's own RTSP URL is that stream, and plays", async () => {
    const added = await add('camera.front_door', live.relay.rtspUrl('cam'));
    expect([added.status, await added.json()]).toEqual([200, { status: 1, payload: {} }]);
    // No new stream: the id is another name for cam.
    expect(Object.keys((await (await fetch(`${live.relay.api}/api/streams`)).json()) as object)).toEqual(['cam']);
    expect(await watch('camera.front_door')).toEqual({ status: 200, width: 320, height: 240 });
  }, 60_000);

  it('a camera added with another URL becomes a stream with that source, and plays', async () => {
    expect((await add('camera.garden', 'ffmpeg:virtual?video=testsrc&size=160x120#video=h264')).status).toBe(200);
    const streams = (await (await fetch(`${live.relay.api}/api/streams`)).json()) as Record<string, { producers: Array<{ url?: string }> }>;
    expect(streams['camera.garden']?.producers[0]?.url).toBe('ffmpeg:virtual?video=testsrc&size=160x120#video=h264');
    expect(await watch('camera.garden')).toEqual({ status: 200, width: 160, height: 120 });
    // Added again (the integration adds before every view): the same source, nothing restarts.
    expect((await add('camera.garden', 'ffmpeg:virtual?video=testsrc&size=160x120#video=h264')).status).toBe(200);
  }, 60_000);

  it('bad calls: commands refused, unknown stream, no offer, wrong method; nothing left behind', async () => {
    const exec = await add('camera.evil', 'exec:touch /tmp/owned');
    expect([exec.status, await exec.text()]).toEqual([
      400,
      'streams: source exec runs commands and is accepted from the config file only\n',
    ]);
    const unknown = await add('camera.x', 'gopher://10.0.0.1/cam');
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toMatch(/^streams: source not supported: gopher/);
    const missing = await fetch(`${live.relay.api}/stream/nope/channel/0/webrtc`, {
      method: 'POST',
      body: new URLSearchParams({ data: btoa('v=0') }),
    });
    expect([missing.status, await missing.text()]).toEqual([404, 'stream not found: nope\n']);
    const empty = await fetch(`${live.relay.api}/stream/cam/channel/0/webrtc`, { method: 'POST', body: new URLSearchParams({}) });
    expect([empty.status, await empty.text()]).toEqual([400, 'the form field data is required: the base64 SDP offer\n']);
    const garbage = await fetch(`${live.relay.api}/stream/cam/channel/0/webrtc`, {
      method: 'POST',
      body: new URLSearchParams({ data: btoa('hello') }),
    });
    expect([garbage.status, await garbage.text()]).toEqual([400, 'the offer is not a usable SDP: not an SDP: no v=0 line\n']);
    expect((await fetch(`${live.relay.api}/stream/cam/channel/0/webrtc`)).status).toBe(405);
    expect((await fetch(`${live.relay.api}/stream/cam/other`, { method: 'POST' })).status).toBe(404);
    expect(
      (await fetch(`${live.relay.api}/stream/cam/add`, { method: 'POST', body: '{}', headers: { Origin: 'https://elsewhere.example' } }))
        .status,
    ).toBe(403);
    const names = Object.keys((await (await fetch(`${live.relay.api}/api/streams`)).json()) as object);
    expect(names).toEqual(['cam', 'camera.garden']);
    await waitFor(async () => (!(await (await fetch(`${live.relay.api}/api/stack`)).text()).includes('webrtc') ? true : undefined), 20_000);
  }, 60_000);
});
