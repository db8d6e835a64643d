import type { Segment } from './segmenter';

export interface Variant {
  /** RFC 6381 codec strings (`avc1.42c01e`, `mp4a.40.2`); none when one of them is unknown. */
  codecs: string[];
  resolution?: { width: number; height: number };
  /** Bits per second, an estimate (Safari insists on one). */
  bandwidth: number;
  uri: string;
}

/**
 * The master playlist of /api/stream.m3u8: one variant, the session's media playlist. No
 * EXT-X-INDEPENDENT-SEGMENTS here: a session's second segment continues its first, which ends
 * at the live edge between keyframes; each media playlist says it once that is behind it.
 */
export function masterPlaylist(variant: Variant): string {
  const attributes = [`BANDWIDTH=${Math.round(variant.bandwidth)}`];
  if (variant.codecs.length > 0) attributes.push(`CODECS="${variant.codecs.join(',')}"`);
  if (variant.resolution) attributes.push(`RESOLUTION=${variant.resolution.width}x${variant.resolution.height}`);
  return ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-STREAM-INF:${attributes.join(',')}`, variant.uri, ''].join('\n');
}

export interface MediaPlaylist {
  /** Segments to list, oldest first, each with its own sequence number. */
  segments: readonly Segment[];
  /** The sequence number the next segment will have (the media sequence of an empty list). */
  next: number;
  targetDuration: number;
  /** `segment.ts?id=x&n=` or `segment.m4s?id=x&n=`; the sequence number is appended. */
  segmentUri: string;
  /** fMP4: the init segment's URI (EXT-X-MAP, playlist version 6). */
  mapUri?: string;
  /** Every segment starts with a keyframe (false once a stream without keyframes had to be cut). */
  independent: boolean;
}

/** A live media playlist (no ENDLIST): the client reloads it to find new segments. */
export function mediaPlaylist(playlist: MediaPlaylist): string {
  const first = playlist.segments[0]?.sequence ?? playlist.next;
  const lines = [
    '#EXTM3U',
    `#EXT-X-VERSION:${playlist.mapUri ? 6 : 3}`,
    `#EXT-X-TARGETDURATION:${playlist.targetDuration}`,
    `#EXT-X-MEDIA-SEQUENCE:${first}`,
  ];
  if (playlist.independent) lines.push('#EXT-X-INDEPENDENT-SEGMENTS');
  if (playlist.mapUri) lines.push(`#EXT-X-MAP:URI="${playlist.mapUri}"`);
  for (const segment of playlist.segments) lines.push(`#EXTINF:${segment.duration.toFixed(3)},`, `${playlist.segmentUri}${segment.sequence}`);
  return lines.join('\n') + '\n';
}
