import { connectionFailure, endpointFailure } from './http-failure';
import type { AdapterEvents, AdapterTarget, PlayerAdapter } from './player-types';
import { candidateFragment, isIceLite } from './whep-trickle';

const GATHER_MS = 1_500;

/** Waits for ICE gathering, but not for ever: host candidates come at once, slow STUN ones may not. */
function gathered(pc: RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, GATHER_MS);
    pc.addEventListener('icegatheringstatechange', () => {
      if (pc.iceGatheringState === 'complete') {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

/** WebRTC over WHEP (`POST /api/webrtc?src=`, SDP in and out); closing the peer ends the session. */
export function startWebrtc(target: AdapterTarget, events: AdapterEvents): PlayerAdapter {
  const pc = new RTCPeerConnection();
  let stopped = false;
  let bytes = 0;
  pc.addTransceiver('video', { direction: 'recvonly' });
  pc.addTransceiver('audio', { direction: 'recvonly' });
  pc.addEventListener('track', (event) => {
    if (target.video.srcObject !== event.streams[0]) target.video.srcObject = event.streams[0] ?? new MediaStream([event.track]);
  });
  pc.addEventListener('connectionstatechange', () => {
    if (!stopped && (pc.connectionState === 'failed' || pc.connectionState === 'closed')) {
      events.onFailure({ reason: 'connection', detail: `WebRTC connection ${pc.connectionState}` });
    }
  });
  target.video.addEventListener('playing', () => !stopped && events.onLive(), { once: true });
  const statsTimer = setInterval(() => {
    void pc.getStats().then((report) => {
      let total = 0;
      report.forEach((s: { type: string; bytesReceived?: number }) => (total += s.type === 'inbound-rtp' ? (s.bytesReceived ?? 0) : 0));
      bytes = total;
    });
  }, 1_000);

  void (async () => {
    try {
      await pc.setLocalDescription(await pc.createOffer());
      // The offer goes at once, with what is gathered so far (see whep-trickle.ts).
      const url = `${target.base}/api/webrtc?src=${encodeURIComponent(target.stream)}`;
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/sdp' },
        body: pc.localDescription!.sdp,
      });
      if (stopped) return;
      if (!response.ok) return events.onFailure(await endpointFailure(response));
      const answer = await response.text();
      await pc.setRemoteDescription({ type: 'answer', sdp: answer });
      const location = response.headers.get('location');
      if (isIceLite(answer) || !location) return;
      // A full ICE agent (the relay with no shared port) gets the candidates once gathered.
      await gathered(pc);
      if (stopped) return;
      await fetch(new URL(location, new URL(url, window.location.href)), {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/trickle-ice-sdpfrag' },
        body: candidateFragment(pc.localDescription!.sdp),
      });
    } catch (error) {
      if (!stopped) events.onFailure(connectionFailure(error));
    }
  })();

  return {
    bytes: () => bytes,
    stop() {
      stopped = true;
      clearInterval(statsTimer);
      target.video.srcObject = null;
      // Closing the peer sends DTLS close_notify, which ends the session on the relay at once
      // (as go2rtc's own player ends it); a WHEP DELETE racing that close finds nothing left.
      pc.close();
    },
  };
}
