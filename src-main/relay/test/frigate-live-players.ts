/**
 * Frigate's live players as they talk to go2rtc through Frigate's nginx, for `page.evaluate`
 * (each function runs in the page and may use nothing from outside). They send what Frigate's
 * web UI sends (web/src/components/player/MsePlayer.tsx and WebRTCPlayer.tsx) in the same
 * order; the React state around it is left out. Each plays into a muted `<video id=...>`.
 */

/** What a player saw before its first picture: the text messages, in order. */
export interface PlayerStart {
  messages: Array<{ type: string; value: string }>;
}

/**
 * Frigate's MSE player: the socket opens, a MediaSource opens, `{"type": "mse", "value": <its
 * codec list that this browser plays>}` goes out, the answer's MIME type makes the
 * SourceBuffer (in `segments` mode) and every binary message is appended to it.
 */
export async function frigateMse({ url, id }: { url: string; id: string }): Promise<PlayerStart> {
  // Frigate's list, filtered by what MediaSource takes.
  const candidates = ['avc1.640029', 'avc1.64002A', 'avc1.640033', 'hvc1.1.6.L153.B0', 'mp4a.40.2', 'mp4a.40.5', 'flac', 'opus'];
  const codecs = candidates.filter((codec) => MediaSource.isTypeSupported(`video/mp4; codecs="${codec}"`)).join();
  const video = document.createElement('video');
  video.id = id;
  video.muted = true;
  video.playsInline = true;
  document.body.append(video);
  const ws = new WebSocket(url);
  ws.binaryType = 'arraybuffer';
  (window as unknown as Record<string, WebSocket>)[`ws_${id}`] = ws;
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve);
    ws.addEventListener('close', () => reject(new Error('the socket closed before it opened')));
  });
  const messages: PlayerStart['messages'] = [];
  const source = new MediaSource();
  const queue: ArrayBuffer[] = [];
  let buffer: SourceBuffer | undefined;
  const pump = () => {
    if (buffer && !buffer.updating && queue.length > 0) buffer.appendBuffer(queue.shift()!);
  };
  const answered = new Promise<void>((resolve) => {
    ws.addEventListener('message', (event) => {
      if (typeof event.data !== 'string') {
        queue.push(event.data as ArrayBuffer);
        return pump();
      }
      const message = JSON.parse(event.data) as { type: string; value: string };
      messages.push(message);
      if (message.type === 'mse') {
        buffer = source.addSourceBuffer(message.value);
        buffer.mode = 'segments';
        buffer.addEventListener('updateend', pump);
      }
      resolve();
    });
  });
  source.addEventListener('sourceopen', () => ws.send(JSON.stringify({ type: 'mse', value: codecs })), { once: true });
  video.src = URL.createObjectURL(source);
  void video.play().catch(() => undefined);
  await answered;
  return { messages };
}

/**
 * Frigate's WebRTC player: a peer connection (max-bundle) receiving video and audio, whose
 * receiver tracks are the video's stream from the start; once the socket opens, each local
 * candidate goes out as `webrtc/candidate`, and the offer as `webrtc/offer` after
 * setLocalDescription; `webrtc/answer` is applied, and a `webrtc/candidate` of the server added
 * with sdpMid "0". Frigate also names a public STUN server; this machine has no internet, so
 * none is given (host candidates on loopback are what connects here).
 */
export async function frigateWebrtc({ url, id }: { url: string; id: string }): Promise<PlayerStart> {
  const video = document.createElement('video');
  video.id = id;
  video.muted = true;
  video.autoplay = true;
  document.body.append(video);
  const pc = new RTCPeerConnection({ bundlePolicy: 'max-bundle' });
  const tracks = ['video', 'audio'].map((kind) => pc.addTransceiver(kind, { direction: 'recvonly' }).receiver.track);
  video.srcObject = new MediaStream(tracks);
  (window as unknown as Record<string, RTCPeerConnection>)[`pc_${id}`] = pc;
  const ws = new WebSocket(url);
  const messages: PlayerStart['messages'] = [];
  const answered = new Promise<void>((resolve, reject) => {
    ws.addEventListener('close', () => reject(new Error('the socket closed before the answer')));
    ws.addEventListener('message', (event) => {
      const message = JSON.parse(event.data as string) as { type: string; value: string };
      messages.push(message);
      if (message.type === 'webrtc/candidate') void pc.addIceCandidate({ candidate: message.value, sdpMid: '0' });
      if (message.type === 'webrtc/answer') void pc.setRemoteDescription({ type: 'answer', sdp: message.value }).then(resolve, reject);
      if (message.type === 'error') reject(new Error(message.value));
    });
  });
  ws.addEventListener('open', () => {
    pc.addEventListener(
      'icecandidate',
      (event) => event.candidate && ws.send(JSON.stringify({ type: 'webrtc/candidate', value: event.candidate.candidate })),
    );
    void pc
      .createOffer()
      .then((offer) => pc.setLocalDescription(offer))
      .then(() => ws.send(JSON.stringify({ type: 'webrtc/offer', value: pc.localDescription!.sdp })));
  });
  await answered;
  return { messages };
}

/** Whether a WebSocket to `url` opens ('open') or is refused before it does ('refused'). */
export function socketOpens(url: string): Promise<'open' | 'refused'> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    ws.onopen = () => {
      ws.close();
      resolve('open');
    };
    ws.onerror = () => resolve('refused');
  });
}
