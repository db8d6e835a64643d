import { spawn, type ChildProcess } from 'node:child_process';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFirefox, type FirefoxTab } from '../../test/firefox-kit';
import { startRelay, waitForMedia, type RelayUnderTest } from '../../test/relay-test-kit';
import { playedPast, readVideo } from '../../test/video-playback';

/** Runs in the page: a recvonly WHEP viewer of `url` playing in a muted <video>; resolves with the answer. */
async function watchOverWhep(url: string): Promise<{ status: number; answer: string }> {
  const pc = new RTCPeerConnection();
  pc.addTransceiver('video', { direction: 'recvonly' });
  const video = document.createElement('video');
  video.muted = true;
  video.autoplay = true;
  document.body.replaceChildren(video);
  pc.ontrack = (event) => (video.srcObject = new MediaStream([event.track]));
  await pc.setLocalDescription(await pc.createOffer());
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/sdp' }, body: pc.localDescription!.sdp });
  const answer = await response.text();
  if (response.status === 201) await pc.setRemoteDescription({ type: 'answer', sdp: answer });
  (window as unknown as { viewer: RTCPeerConnection }).viewer = pc;
  return { status: response.status, answer };
}

/** Runs in the page: the video frames the viewer decoded. */
async function decodedFrames(): Promise<number> {
  let frames = 0;
  (await (window as unknown as { viewer: RTCPeerConnection }).viewer.getStats()).forEach(
    (report: { type: string; kind?: string; framesDecoded?: number }) => {
      if (report.type === 'inbound-rtp' && report.kind === 'video') frames = report.framesDecoded ?? 0;
    },
  );
  return frames;
}

/** ffmpeg publishing a 320x240 VP8 test pattern to `url` over RTSP/TCP, a keyframe every second. */
function publishVp8(url: string): ChildProcess {
  const args = ['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25:duration=120'];
  args.push('-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-g', '25', '-b:v', '400k');
  return spawn('ffmpeg', [...args, '-f', 'rtsp', '-rtsp_transport', 'tcp', url], { stdio: 'ignore' });
}

/**
 * The machine's first IPv4 address other than loopback: Firefox pairs no loopback candidate (it
 * gathers none, whatever its preferences say), so its checks go to the relay's shared port on
 * this address.
 */
function machineAddress(): string {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry?.family === 'IPv4' && !entry.internal)?.address;
  if (!address)
    throw new Error('Firefox needs an IPv4 address other than loopback to reach the relay over WebRTC, and this machine has none');
  return address;
}

/**
 * Firefox (Debian's ESR, its own WebRTC stack: nICEr for ICE, NSS for DTLS) watching over WHEP.
 * Firefox ignores an answer to its check whose mapped address is not its own, so the shared ports
 * readdress werift's answers (`ice/consent-answer.ts`, `ice/framed-answers.ts`); the relay answers Firefox's actpass
 * offer as DTLS server, as it answers Chromium. Debian's Firefox has no H.264 for WebRTC (it
 * would download Cisco's OpenH264), so the camera sends VP8.
 */
describe('WebRTC viewers in Firefox', () => {
  let relay: RelayUnderTest;
  let camera: ChildProcess;
  let firefox: FirefoxTab;

  beforeAll(async () => {
    relay = await startRelay('  cam:\n', `webrtc:\n  listen: ${machineAddress()}:0\n`);
    camera = publishVp8(relay.rtspUrl('cam'));
    firefox = await openFirefox();
    await waitForMedia(relay, 'cam');
  }, 60_000);

  afterAll(async () => {
    camera?.kill('SIGKILL');
    await firefox?.close();
    await relay?.stop();
  });

  it("WHEP: Firefox's ICE connects to the shared port, the relay answers as DTLS server, and the picture plays at its size", async () => {
    await firefox.navigate(`${relay.api}/api`);
    const posted = await firefox.evaluate(watchOverWhep, `${relay.api}/api/webrtc?src=cam`);
    expect(posted.status).toBe(201);
    expect(/^a=setup:(\S+)/m.exec(posted.answer)?.[1]).toBe('passive');
    expect(await playedPast(() => firefox.evaluate(readVideo), 1)).toMatchObject({ size: '320x240', error: null });
    expect((await firefox.evaluate(decodedFrames)) > 10).toBe(true);
  }, 90_000);

  it('ICE-TCP alone (a network that lets no UDP through): the same picture over the shared TCP port', async () => {
    const tcpOnly = await startRelay('  cam:\n', `webrtc:\n  listen: ${machineAddress()}:0/tcp\n  filters:\n    networks: [tcp4]\n`);
    const tcpCamera = publishVp8(tcpOnly.rtspUrl('cam'));
    try {
      await waitForMedia(tcpOnly, 'cam');
      await firefox.navigate(`${tcpOnly.api}/api`);
      const posted = await firefox.evaluate(watchOverWhep, `${tcpOnly.api}/api/webrtc?src=cam`);
      expect(posted.status).toBe(201);
      expect(posted.answer).not.toMatch(/^a=candidate:.* udp /im);
      expect(posted.answer).toMatch(/^a=candidate:.* tcp .* tcptype passive/im);
      expect(await playedPast(() => firefox.evaluate(readVideo), 1)).toMatchObject({ size: '320x240', error: null });
    } finally {
      tcpCamera.kill('SIGKILL');
      await tcpOnly.stop();
    }
  }, 90_000);
});
