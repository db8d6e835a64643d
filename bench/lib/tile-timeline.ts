/** What the timeline probe saw in a page, on `window.tileTimeline`. Times are ms since navigation started. */
export interface TileTimeline {
  /** The console's contract socket opened (`/console/ws`). */
  consoleSocketOpenAt: number | null;
  /** The React root first held something: the bundle loaded, parsed and rendered once. */
  firstRenderAt: number | null;
  /** Each contract call by its id: `service.method`, when it was sent and when its result came back. */
  calls: Record<number, { name: string; sentAt: number; answeredAt: number | null }>;
  /** A player chose WebRTC and made its peer connection (the offer is made from here). */
  peerCreatedAt: number | null;
  /** The first media request of a player: WHEP POST, `/api/ws`, HLS playlist or MJPEG (`kind url`). */
  mediaRequest: { kind: string; at: number } | null;
  /** The first picture a `<video>` presented, and the first later one with another media time. */
  firstFrameAt: number | null;
  secondFrameAt: number | null;
  width: number;
}

/**
 * Runs in a page before its own scripts (serialized by playwright: it may use nothing from
 * outside). Notes when the console's contract socket opens and each call on it is answered, when
 * a player first asks the relay for media (a WHEP offer, go2rtc's `/api/ws`, an HLS playlist, an
 * MJPEG stream) and when a `<video>` presents its first picture and then a different one (its
 * media time moved on: the picture moves).
 */
export function installTileTimeline(): void {
  const probe: TileTimeline = {
    consoleSocketOpenAt: null,
    firstRenderAt: null,
    calls: {},
    peerCreatedAt: null,
    mediaRequest: null,
    firstFrameAt: null,
    secondFrameAt: null,
    width: 0,
  };
  (window as unknown as { tileTimeline: TileTimeline }).tileTimeline = probe;
  const media = (kind: string) => {
    probe.mediaRequest ??= { kind, at: performance.now() };
  };
  const NativeFetch = window.fetch.bind(window);
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.includes('/api/webrtc')) media('WHEP offer');
    else if (url.includes('/api/stream.m3u8')) media('HLS playlist');
    else if (url.includes('/api/stream.mjpeg')) media('MJPEG');
    return NativeFetch(input, init);
  };
  const NativePeer = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends NativePeer {
    constructor(configuration?: RTCConfiguration) {
      super(configuration);
      probe.peerCreatedAt ??= performance.now();
    }
  };
  const NativeSocket = window.WebSocket;
  window.WebSocket = class extends NativeSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      const path = new URL(String(url), location.href).pathname;
      if (path.endsWith('/api/ws')) media('MSE socket');
      if (!path.endsWith('/console/ws')) return;
      this.addEventListener('open', () => (probe.consoleSocketOpenAt ??= performance.now()));
      this.addEventListener('message', (event) => {
        if (typeof event.data !== 'string') return;
        const frame = JSON.parse(event.data) as { type?: string; id?: number };
        const call = frame.type === 'result' ? probe.calls[frame.id ?? -1] : undefined;
        if (call) call.answeredAt ??= performance.now();
      });
    }
    override send(data: string | ArrayBufferLike | Blob | ArrayBufferView) {
      if (typeof data === 'string') {
        const frame = JSON.parse(data) as { type?: string; id?: number; service?: string; method?: string };
        if (frame.type === 'call' && frame.id !== undefined) {
          probe.calls[frame.id] = { name: `${frame.service}.${frame.method}`, sentAt: performance.now(), answeredAt: null };
        }
      }
      super.send(data);
    }
  };
  const watched = new WeakSet<HTMLVideoElement>();
  const watch = (video: HTMLVideoElement) => {
    if (watched.has(video)) return;
    watched.add(video);
    let firstMediaTime: number | null = null;
    const onFrame = (now: number, frame: VideoFrameCallbackMetadata) => {
      if (firstMediaTime === null) {
        firstMediaTime = frame.mediaTime;
        if (probe.firstFrameAt === null) Object.assign(probe, { firstFrameAt: now, width: frame.width });
      } else if (frame.mediaTime !== firstMediaTime) {
        probe.secondFrameAt ??= now;
        return;
      }
      video.requestVideoFrameCallback(onFrame);
    };
    video.requestVideoFrameCallback(onFrame);
  };
  new MutationObserver(() => {
    if (probe.firstRenderAt === null && document.getElementById('root')?.firstChild) probe.firstRenderAt = performance.now();
    document.querySelectorAll('video').forEach(watch);
  }).observe(document, { childList: true, subtree: true });
}
