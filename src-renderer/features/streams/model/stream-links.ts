import type { RelayEndpoints } from '@shared/contract/relay';

/** Every output the relay gives a stream, in the order go2rtc's links page lists them. */
const LINK_IDS = ['webrtc', 'ws', 'hls', 'hls-fmp4', 'mp4', 'mjpeg', 'rtsp', 'frame-jpeg', 'frame-mp4'] as const;
type LinkId = (typeof LINK_IDS)[number];

export interface StreamLink {
  id: LinkId;
  label: string;
  url: string;
  /** Which players take it, in one line. */
  note: string;
}

const NOTES: Record<LinkId, { label: string; note: string }> = {
  webrtc: { label: 'WebRTC (WHEP)', note: 'POST an SDP offer here: OBS, GStreamer whepsrc, Home Assistant WebRTC cards; lowest delay.' },
  ws: {
    label: 'MSE / WebRTC over WebSocket',
    note: "go2rtc's video-stream.js player and Frigate's live view; needs Media Source Extensions.",
  },
  hls: { label: 'HLS (MPEG-TS)', note: 'Safari, iOS, smart TVs, VLC and hls.js; a few seconds behind live.' },
  'hls-fmp4': { label: 'HLS (fMP4)', note: 'Safari and hls.js; carries H.265 to Apple devices.' },
  mp4: { label: 'MP4 stream', note: 'A <video> tag in Chrome or Firefox, VLC, ffplay: fragmented MP4 over one HTTP response.' },
  mjpeg: {
    label: 'MJPEG',
    note: 'Any <img> tag, Home Assistant MJPEG cameras, old NVRs; JPEG frames, re-encoded when the camera sends H.264.',
  },
  rtsp: { label: 'RTSP', note: 'VLC, ffplay, Frigate, Home Assistant generic cameras and NVRs.' },
  'frame-jpeg': { label: 'Snapshot (JPEG)', note: 'One picture now: Home Assistant still images, notifications, scripts.' },
  'frame-mp4': { label: 'Snapshot (MP4)', note: 'One keyframe as a short MP4, without re-encoding.' },
};

/** `[::1]` for an IPv6 literal, the name itself otherwise. */
const hostForUrl = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);
const WILDCARD_HOSTS = new Set(['', '0.0.0.0', '::', '[::]']);

/**
 * The RTSP URL of a stream: the configured host, or the host the console reached the engine
 * by when the server listens on every address. Undefined when the RTSP server is off.
 */
export function rtspUrl(stream: string, endpoints: RelayEndpoints, pageHost: string): string | undefined {
  const rtsp = endpoints.rtsp;
  if (!rtsp) return undefined;
  const host = WILDCARD_HOSTS.has(rtsp.host) ? pageHost : rtsp.host;
  const login = rtsp.needsLogin ? 'user:password@' : '';
  return `rtsp://${login}${hostForUrl(host)}:${rtsp.port}/${encodeURIComponent(stream)}`;
}

/**
 * Every output URL of one stream. `base` is where the engine's HTTP API answers
 * (`http://127.0.0.1:1984/`); the RTSP link is left out when that server is off.
 */
export function streamLinks(base: string, stream: string, endpoints: RelayEndpoints): StreamLink[] {
  const api = new URL('api/', base.endsWith('/') ? base : `${base}/`);
  const src = `src=${encodeURIComponent(stream)}`;
  const http = (path: string, extra = '') => `${api.href}${path}?${src}${extra}`;
  const urls: Record<LinkId, string | undefined> = {
    webrtc: http('webrtc'),
    ws: http('ws').replace(/^http/, 'ws'),
    hls: http('stream.m3u8'),
    'hls-fmp4': http('stream.m3u8', '&mp4'),
    mp4: http('stream.mp4'),
    mjpeg: http('stream.mjpeg'),
    rtsp: rtspUrl(stream, endpoints, api.hostname.replace(/^\[(.*)\]$/, '$1')),
    'frame-jpeg': http('frame.jpeg'),
    'frame-mp4': http('frame.mp4'),
  };
  return LINK_IDS.flatMap((id) => (urls[id] ? [{ id, ...NOTES[id], url: urls[id] }] : []));
}

/** Command lines that play the stream in ffplay and VLC: RTSP when the server is on, MP4 otherwise. */
export function playerSnippets(links: StreamLink[]): string[] {
  const rtsp = links.find((link) => link.id === 'rtsp')?.url;
  const mp4 = links.find((link) => link.id === 'mp4')!.url;
  return rtsp
    ? [`ffplay -rtsp_transport tcp -fflags nobuffer "${rtsp}"`, `vlc --network-caching=300 "${rtsp}"`]
    : [`ffplay -fflags nobuffer "${mp4}"`, `vlc "${mp4}"`];
}
