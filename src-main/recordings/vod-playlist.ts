/** A segment as a playlist lists it. */
export interface PlaylistSegment {
  key: string;
  startMs: number;
  durationMs: number;
  /** Segments with the same init segment play on under one EXT-X-MAP. */
  initId: string;
}

export interface PlaylistUrls {
  /** The init segment (`ftyp`+`moov`) of the segment `key`. */
  init(key: string): string;
  /** The fragments of `key`, moved to start at `offsetMs` on the playlist's timeline. */
  media(key: string, offsetMs: number): string;
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/**
 * An HLS VOD playlist (RFC 8216, fMP4) over recorded segments, oldest first. Each segment
 * file is a whole fMP4 whose timeline starts at 0, so the relay serves its init segment once
 * (EXT-X-MAP) and its fragments moved to where the segment sits on the playlist's timeline:
 * segments play as one continuous video, also across a gap in the recording (where
 * EXT-X-PROGRAM-DATE-TIME jumps, so a player can show the time of day). A new init segment
 * (the camera came back at another size) starts a discontinuity with its own EXT-X-MAP.
 */
export function vodPlaylist(segments: readonly PlaylistSegment[], urls: PlaylistUrls): string {
  const target = Math.max(1, ...segments.map((s) => Math.ceil(s.durationMs / 1000)));
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:7',
    `#EXT-X-TARGETDURATION:${target}`,
    '#EXT-X-PLAYLIST-TYPE:VOD',
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-INDEPENDENT-SEGMENTS',
  ];
  let initId: string | undefined;
  let offsetMs = 0;
  for (const segment of segments) {
    if (segment.initId !== initId) {
      if (initId !== undefined) lines.push('#EXT-X-DISCONTINUITY');
      lines.push(`#EXT-X-MAP:URI="${urls.init(segment.key)}"`);
      initId = segment.initId;
    }
    lines.push(
      `#EXT-X-PROGRAM-DATE-TIME:${new Date(segment.startMs).toISOString()}`,
      `#EXTINF:${seconds(segment.durationMs)},`,
      urls.media(segment.key, offsetMs),
    );
    offsetMs += segment.durationMs;
  }
  lines.push('#EXT-X-ENDLIST', '');
  return lines.join('\n');
}
