import type { MediaRequest } from '../../core/negotiation';
import { pcmCodecsFor, type ClientAudio } from '../../media/containers/fmp4/audio-form';

const listed = (browserCodecs: string) => browserCodecs.split(',').map((c) => c.trim().toLowerCase());

/**
 * The audio forms a browser's codec list names (`flac`, `alaw`, `ulaw`, as RFC 6381 spells
 * MP4's sample entries): what `fmp4AudioForm` writes a PCM source as for it.
 */
export function clientAudioFromCodecs(browserCodecs: string): ClientAudio {
  const codecs = listed(browserCodecs);
  return { flac: codecs.includes('flac'), alaw: codecs.includes('alaw'), ulaw: codecs.includes('ulaw') };
}

/**
 * What a browser's MediaSource can play, from the codec list go2rtc's player sends with
 * `{"type": "mse", "value": "avc1.640029,hvc1.1.6.L153.B0,mp4a.40.2,opus,flac"}` (and the `hls`
 * mode), as the stream's codecs to ask for: video H.264 / H.265, audio AAC and Opus as they are,
 * G.711 and 16-bit PCM when the browser takes them as FLAC (or G.711 as `alaw` / `ulaw`).
 */
export function mseRequests(browserCodecs: string): MediaRequest[] {
  const codecs = listed(browserCodecs);
  const has = (prefix: string) => codecs.some((c) => c.startsWith(prefix));
  const video = [...(has('avc1') ? ['H264'] : []), ...(has('hvc1') || has('hev1') ? ['H265'] : [])];
  const audio = [
    ...(has('mp4a') ? ['MPEG4-GENERIC'] : []),
    ...(has('opus') ? ['OPUS'] : []),
    ...pcmCodecsFor(clientAudioFromCodecs(browserCodecs)),
  ];
  return [
    ...(video.length > 0 ? [{ kind: 'video' as const, codecs: video }] : []),
    ...(audio.length > 0 ? [{ kind: 'audio' as const, codecs: audio }] : []),
  ];
}
