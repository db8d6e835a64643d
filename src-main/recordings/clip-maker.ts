import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { clipPlan, wholeFragmentsEnd, type ClipSource } from './clip-plan';
import { fragmentSeconds, retimedFragments, segmentParts, type SegmentParts } from './fmp4-parts';
import { fragmentEndSeconds } from './fragment-end';
import type { MadeClip } from './live-buffer';
import { segmentBytes } from './segment-bytes';
import type { SegmentCatalog, SegmentPlace } from './segment-catalog';
import { fragmentWindow } from './segment-join';
import type { Spool } from './spool';

export interface RecordedClipInput {
  stream: string;
  place: SegmentPlace;
  catalog: SegmentCatalog;
  spool: Spool;
  seconds: number;
  nowMs: number;
}

/** A piece found, and how to read its bytes. */
interface Piece extends ClipSource {
  read(): Promise<Uint8Array>;
}

/**
 * The last `seconds` of a recorded stream as one MP4: its segments in the bucket, those still in
 * the spool and the whole fragments of the one being written (which reach to within a second
 * of now), cut at the keyframe at or before the clip's start, laid end to end on one timeline
 * under the newest pieces' init segment. No sample is decoded or rewritten, only moved in time.
 * Undefined when nothing of the range was recorded.
 */
export async function recordedClip(input: RecordedClipInput): Promise<MadeClip | undefined> {
  const { place, spool, stream, nowMs, seconds } = input;
  const range = { startMs: nowMs - seconds * 1000, endMs: nowMs };
  const listed: Piece[] = (await input.catalog.list(place, range)).map((s) => ({
    id: s.key,
    startMs: s.startMs,
    durationMs: s.durationMs,
    initId: s.initId,
    read: () => segmentBytes(place.client, place.bucket, s.key),
  }));
  // The spool's copy is read rather than the bucket's when a segment is in both.
  const spooled: Piece[] = spool.entries(stream).map((e) => ({
    id: e.target.key,
    startMs: e.target.startMs,
    durationMs: e.target.durationMs,
    initId: e.target.initId,
    read: () => readFile(e.file),
  }));
  const finished = [...listed, ...spooled];
  const pieces = [...finished, ...(await piecesBeingWritten(spool.writing(stream), nowMs))];
  const plan = clipPlan(pieces, nowMs, seconds);
  if (plan.length === 0) return undefined;

  const chunks: Uint8Array[] = [];
  let offset = 0;
  let cut = 0;
  let sequence = 1;
  for (const [i, step] of plan.entries()) {
    const piece = step.source as Piece;
    const bytes = await piece.read();
    const parts = segmentParts(bytes);
    const [first, end] = fragmentWindow(parts, step.fromSeconds);
    const fragments = parts.fragments.slice(first, end);
    if (i === 0) {
      cut = fragments[0] ? fragmentSeconds(parts, fragments[0]) : 0;
      chunks.push(bytes.subarray(0, parts.initEnd));
    }
    chunks.push(retimedFragments(bytes, parts, fragments, offset - cut, sequence));
    sequence += fragments.length;
    offset += piece.durationMs / 1000;
  }
  return { bytes: Buffer.concat(chunks), seconds: Math.max(0, offset - cut) };
}

/**
 * The segments begun and not yet in the spool, as far as their fragments are whole: the newest
 * ends now (less the fragment still in memory), each older one where the next begins.
 */
async function piecesBeingWritten(files: readonly string[], nowMs: number): Promise<Piece[]> {
  const pieces: Piece[] = [];
  let endMs = nowMs;
  for (const file of [...files].reverse()) {
    const whole = await readFile(file).then(
      (bytes) => bytes.subarray(0, wholeFragmentsEnd(bytes)),
      // Finished (renamed into the spool) meanwhile: it is an entry now, read next time.
      () => undefined,
    );
    if (!whole || whole.length === 0) continue;
    let parts: SegmentParts;
    let durationMs: number;
    try {
      parts = segmentParts(whole);
      const last = parts.fragments.at(-1);
      durationMs = last ? Math.round(fragmentEndSeconds(whole, parts, last) * 1000) : 0;
    } catch {
      continue;
    }
    if (durationMs <= 0) continue;
    pieces.unshift({
      id: file,
      startMs: endMs - durationMs,
      durationMs,
      initId: createHash('sha256').update(whole.subarray(0, parts.initEnd)).digest('hex').slice(0, 16),
      read: async () => whole,
    });
    endMs -= durationMs;
  }
  return pieces;
}
