import type { Part, Segment } from './segmenter';

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
 * EXT-X-INDEPENDENT-SEGMENTS here: a session's second and third segments begin between
 * keyframes (its first GOP cut in three); each media playlist says it once they are behind it.
 */
export function masterPlaylist(variant: Variant): string {
  const attributes = [`BANDWIDTH=${Math.round(variant.bandwidth)}`];
  if (variant.codecs.length > 0) attributes.push(`CODECS="${variant.codecs.join(',')}"`);
  if (variant.resolution) attributes.push(`RESOLUTION=${variant.resolution.width}x${variant.resolution.height}`);
  return ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-STREAM-INF:${attributes.join(',')}`, variant.uri, ''].join('\n');
}

export interface MediaPlaylist {
  /** Segments to list, oldest first, each with its own sequence number (see `segmentsToList`). */
  segments: readonly Segment[];
  /** The sequence number the next segment will have (the media sequence of an empty list). */
  next: number;
  /** Fixed for the session: no listed segment rounds above it. */
  targetDuration: number;
  /** `segment.ts?id=x&n=` or `segment.m4s?id=x&n=`; the sequence number is appended. */
  segmentUri: string;
  /** fMP4: the init segment's URI (EXT-X-MAP, playlist version 6). */
  mapUri?: string;
  /** Wall-clock milliseconds of second 0 of the segments' time line: each gets EXT-X-PROGRAM-DATE-TIME. */
  epochMs?: number;
  /** Low-Latency HLS: the parts of the newest segments and of the one being filled. */
  lowLatency?: LowLatencyPlaylist;
}

interface LowLatencyPlaylist {
  /** PART-TARGET: no part lasts longer (seconds). */
  partTarget: number;
  /** `part.ts?id=x&n=`; `<sequence>&p=<index>` is appended. */
  partUri: string;
  /** The complete parts of the segment being filled (its sequence number is `next`). */
  pendingParts: readonly Part[];
}

/** Parts are listed for the segments that end within this many target durations of the live edge. */
const PARTS_LISTED_FOR_TARGETS = 3;

/**
 * The newest segments a playlist lists: at least `count`, and as many more (of those kept) as it
 * takes to span three target durations, since a live playlist may not drop a segment that would
 * leave it shorter (RFC 8216 6.2.2) and players start three target durations from its end.
 */
export function segmentsToList(kept: readonly Segment[], count: number, targetDuration: number): readonly Segment[] {
  let from = kept.length;
  let span = 0;
  while (from > 0 && (kept.length - from < count || span < 3 * targetDuration)) span += kept[--from]!.duration;
  return kept.slice(from);
}

const partLine = (uri: string, part: Part) =>
  `#EXT-X-PART:DURATION=${part.duration.toFixed(3)},URI="${uri}"${part.independent ? ',INDEPENDENT=YES' : ''}`;

/**
 * A live media playlist (no ENDLIST): the client reloads it to find new segments. With
 * `lowLatency` it also lists parts (EXT-X-PART) of the newest segments and of the one being
 * filled, hints the next part (EXT-X-PRELOAD-HINT), and says that reloads may block
 * (`_HLS_msn`/`_HLS_part`); players that do not know these tags skip them. It claims
 * EXT-X-INDEPENDENT-SEGMENTS while every listed segment (and listed part run) begins at a keyframe.
 */
export function mediaPlaylist(playlist: MediaPlaylist): string {
  const first = playlist.segments[0]?.sequence ?? playlist.next;
  const low = playlist.lowLatency;
  const lines = ['#EXTM3U', `#EXT-X-VERSION:${playlist.mapUri ? 6 : 3}`, `#EXT-X-TARGETDURATION:${playlist.targetDuration}`];
  if (low) {
    // Three parts behind the live edge, as the specification recommends.
    lines.push(`#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=${(3 * low.partTarget).toFixed(3)}`);
    lines.push(`#EXT-X-PART-INF:PART-TARGET=${low.partTarget.toFixed(3)}`);
  }
  lines.push(`#EXT-X-MEDIA-SEQUENCE:${first}`);
  const pendingIndependent = !low || low.pendingParts.length === 0 || low.pendingParts[0]!.independent;
  if (playlist.segments.length > 0 && pendingIndependent && playlist.segments.every((segment) => segment.independent))
    lines.push('#EXT-X-INDEPENDENT-SEGMENTS');
  if (playlist.mapUri) lines.push(`#EXT-X-MAP:URI="${playlist.mapUri}"`);
  // The segments whose parts are listed: those ending within a few target durations of the edge.
  let withParts = playlist.segments.length;
  if (low) {
    let span = low.pendingParts.reduce((sum, part) => sum + part.duration, 0);
    while (withParts > 0 && span + playlist.segments[withParts - 1]!.duration <= PARTS_LISTED_FOR_TARGETS * playlist.targetDuration) {
      withParts--;
      span += playlist.segments[withParts]!.duration;
    }
  }
  for (const [index, segment] of playlist.segments.entries()) {
    // A segment's date comes before its first part (rfc8216bis 4.4.4.9).
    if (playlist.epochMs !== undefined)
      lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(playlist.epochMs + segment.start * 1000).toISOString()}`);
    if (low && index >= withParts)
      for (const part of segment.parts) lines.push(partLine(`${low.partUri}${segment.sequence}&p=${part.index}`, part));
    lines.push(`#EXTINF:${segment.duration.toFixed(3)},`, `${playlist.segmentUri}${segment.sequence}`);
  }
  if (low) {
    for (const part of low.pendingParts) lines.push(partLine(`${low.partUri}${playlist.next}&p=${part.index}`, part));
    lines.push(`#EXT-X-PRELOAD-HINT:TYPE=PART,URI="${low.partUri}${playlist.next}&p=${low.pendingParts.length}"`);
  }
  return lines.join('\n') + '\n';
}
