import type { SegmentSummary } from './segment-writer';

/**
 * What a segment object says of itself in `x-qn-meta-*`, so the recordings can be listed from
 * the bucket alone (another console, or after the local cache is gone): its wall-clock span,
 * its media length, codecs and init segment digest, and the stream it was recorded from.
 */
export interface SegmentMeta {
  startMs: number;
  endMs: number;
  durationMs: number;
  codecs: string;
  initId: string;
}

/** The upload's metadata headers. */
export function metadataHeaders(segment: SegmentSummary, stream: string): Record<string, string> {
  return {
    'x-qn-meta-start': new Date(segment.startMs).toISOString(),
    'x-qn-meta-end': new Date(segment.endMs).toISOString(),
    'x-qn-meta-duration': String(segment.durationMs),
    'x-qn-meta-codecs': segment.codecs,
    'x-qn-meta-init': segment.initId,
    // Stream names are the user's: only what a header carries plainly.
    'x-qn-meta-stream': encodeURIComponent(stream),
  };
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A stat's metadata (names without `x-qn-meta-`) as a segment's, or undefined for an object that is not one. */
export function segmentMetaOf(metadata: Readonly<Record<string, string>>): SegmentMeta | undefined {
  const { start, end, duration, codecs, init } = metadata;
  if (!start || !end || !ISO.test(start) || !ISO.test(end) || !duration || !/^\d{1,9}$/.test(duration)) return undefined;
  const startMs = Date.parse(start);
  const endMs = Date.parse(end);
  if (!Number.isFinite(startMs) || !Number.isFinite(endMs) || endMs < startMs) return undefined;
  return { startMs, endMs, durationMs: Number(duration), codecs: codecs ?? '', initId: init ?? '' };
}
