/** A media playlist as an HLS reader needs it: where the segments are and which are new. */
export interface MediaPlaylist {
  mediaSequence: number;
  targetDuration: number;
  segments: Array<{ sequence: number; url: string }>;
  ended: boolean;
  /** fMP4 segments (an EXT-X-MAP) are not read by this source. */
  initSegment?: string;
}

/** The first variant of a master playlist, or undefined when `text` is a media playlist. */
export function firstVariant(text: string, base: string): string | undefined {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const at = lines.findIndex((l) => l.startsWith('#EXT-X-STREAM-INF'));
  if (at < 0) return undefined;
  const uri = lines.slice(at + 1).find((l) => l && !l.startsWith('#'));
  return uri ? new URL(uri, base).href : undefined;
}

export function parseMediaPlaylist(text: string, base: string): MediaPlaylist {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  if (lines[0] !== '#EXTM3U') throw new Error('HLS: the playlist does not start with #EXTM3U');
  let sequence = Number(/^#EXT-X-MEDIA-SEQUENCE:(\d+)/m.exec(text)?.[1] ?? 0);
  const playlist: MediaPlaylist = {
    mediaSequence: sequence,
    targetDuration: Number(/^#EXT-X-TARGETDURATION:(\d+(\.\d+)?)/m.exec(text)?.[1] ?? 2),
    segments: [],
    ended: /^#EXT-X-ENDLIST/m.test(text),
    initSegment: /^#EXT-X-MAP:.*URI="([^"]+)"/m.exec(text)?.[1],
  };
  for (const line of lines) {
    if (!line || line.startsWith('#')) continue;
    playlist.segments.push({ sequence: sequence++, url: new URL(line, base).href });
  }
  return playlist;
}
