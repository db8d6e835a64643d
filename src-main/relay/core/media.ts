/**
 * What a producer offers and a consumer accepts, per media (go2rtc's model): a kind, a direction
 * and a list of codecs. Codec names are upper-case RTP encoding names; AAC is MPEG4-GENERIC.
 */
export type MediaKind = 'video' | 'audio';
/** Seen from the relay: `recvonly` media flows from a producer into the relay; `sendonly` out to a consumer. */
export type MediaDirection = 'recvonly' | 'sendonly';

export interface Codec {
  /** RTP encoding name, upper-case: H264, H265, JPEG, MPEG4-GENERIC, OPUS, PCMA, PCMU, ... */
  name: string;
  clockRate: number;
  channels?: number;
  payloadType: number;
  /** SDP fmtp parameters as written (sprop-parameter-sets, config=..., ...). */
  fmtp?: string;
}

export interface Media {
  kind: MediaKind;
  direction: MediaDirection;
  codecs: Codec[];
  /** SDP control attribute of this media at its source (RTSP). */
  control?: string;
}

/** Wildcards a consumer may ask for: ANY = the first codec that matches, ALL = every one. */
export const ANY = 'ANY';
export const ALL = 'ALL';

/** User-facing aliases (as in go2rtc's filters) → RTP encoding names. */
const CODEC_ALIASES: Record<string, string> = {
  h264: 'H264',
  h265: 'H265',
  hevc: 'H265',
  mjpeg: 'JPEG',
  jpeg: 'JPEG',
  aac: 'MPEG4-GENERIC',
  opus: 'OPUS',
  pcma: 'PCMA',
  pcmu: 'PCMU',
  pcm: 'L16',
  mp3: 'MPA',
  flac: 'FLAC',
  all: ALL,
  any: ANY,
  '': ANY,
};

export function codecFromAlias(alias: string): string {
  return CODEC_ALIASES[alias.toLowerCase()] ?? alias.toUpperCase();
}

/** `H264/90000`, `MPEG4-GENERIC/48000/2`: how users see a codec in stats and errors. */
export function describeCodec(codec: Codec): string {
  return codec.channels ? `${codec.name}/${codec.clockRate}/${codec.channels}` : `${codec.name}/${codec.clockRate}`;
}

/** go2rtc's stats form: `video, recvonly, H264`. */
export function describeMedia(media: Media): string {
  return `${media.kind}, ${media.direction}, ${media.codecs.map((c) => c.name).join(', ')}`;
}

/**
 * One access unit, as the HTTP outputs (MP4, HLS, MJPEG) and ingest want it. Timestamps are in
 * the codec's clock (90 kHz for video) and may wrap like RTP's.
 */
export interface MediaFrame {
  codec: string;
  timestamp: number;
  /** Video: an IDR/IRAP access unit; audio: always true. */
  keyframe: boolean;
  /** H264/H265: AVCC (4-byte big-endian length before each NAL unit); audio: the raw frame. */
  data: Uint8Array;
}
