import type { MediaRequest } from '../../core/negotiation';

/**
 * What a browser's MediaSource can play, from the codec list go2rtc's player sends with
 * `{"type": "mse", "value": "avc1.640029,hvc1.1.6.L153.B0,mp4a.40.2,opus,flac"}`, as the
 * stream's codecs to ask for: video H.264 / H.265, audio AAC and Opus as they are, G.711 and
 * PCM through FLAC (the MP4 writer converts them) when the browser takes FLAC.
 */
export function mseRequests(browserCodecs: string): MediaRequest[] {
  const codecs = browserCodecs.split(',').map((c) => c.trim().toLowerCase());
  const has = (prefix: string) => codecs.some((c) => c.startsWith(prefix));
  const video = [...(has('avc1') ? ['H264'] : []), ...(has('hvc1') || has('hev1') ? ['H265'] : [])];
  const audio = [...(has('mp4a') ? ['MPEG4-GENERIC'] : []), ...(has('opus') ? ['OPUS'] : []), ...(has('flac') ? ['PCMA', 'PCMU', 'L16'] : [])];
  return [...(video.length > 0 ? [{ kind: 'video' as const, codecs: video }] : []), ...(audio.length > 0 ? [{ kind: 'audio' as const, codecs: audio }] : [])];
}
