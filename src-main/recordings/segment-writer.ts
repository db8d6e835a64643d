import { createHash } from 'node:crypto';
import type { Codec, MediaFrame, MediaKind } from '../relay/core/media';
import { createFmp4Muxer, type Fmp4Muxer, type Fmp4Sample } from '../relay/media/containers/fmp4/muxer';
import { segmentStep } from './segment-boundary';
import { createSegmentClock, segmentSpan } from './segment-clock';

export interface RecordedTrack {
  kind: MediaKind;
  codec: Codec;
}

/** A finished segment: its wall-clock span, its media length and what a player needs to know. */
export interface SegmentSummary {
  startMs: number;
  endMs: number;
  /** Media time in the file, ms (what a playlist's EXTINF says). */
  durationMs: number;
  /** RFC 6381 codecs, `avc1.640028,mp4a.40.2`. */
  codecs: string;
  /** The init segment's digest: segments with the same one play on under one EXT-X-MAP. */
  initId: string;
}

/** `data`: the segment's next bytes, as pieces to be written one after another (a fragment's boxes, then its samples). */
export type WriterEvent = { kind: 'open' } | { kind: 'data'; parts: readonly Uint8Array[] } | { kind: 'close'; segment: SegmentSummary };

export interface RunWriterOptions {
  tracks: readonly RecordedTrack[];
  /** Target segment length (each runs to the first lead keyframe at or past it). */
  segmentMs: number;
  /** A fragment (moof + mdat) is written at each keyframe and at least this often, so a crash loses little and memory stays small. */
  fragmentMs?: number;
}

/**
 * Turns one run of a stream's frames (one source connection, one set of tracks) into
 * segments, each a complete fragmented MP4 of its own (`ftyp`, `moov`, then `moof`+`mdat`s)
 * whose timeline starts at 0, made by the relay's own muxer: no transcoding. Every segment
 * starts on a lead keyframe and every lead keyframe starts a fragment, so a range can be cut
 * at keyframes without reading samples. Audio carries on across a cut where the previous
 * segment left it (not where it happened to arrive).
 */
export interface RunWriter {
  /** A frame in (in decode order per track), with when it arrived (ms); what to write out (not to be changed: often one shared empty list). */
  push(track: number, frame: MediaFrame, arrivalMs: number): readonly WriterEvent[];
  /** Ends the run: the open segment is closed as it stands (the last may be shorter). */
  finish(): readonly WriterEvent[];
  /** A segment is open (its bytes have begun). */
  readonly open: boolean;
}

interface OpenSegment {
  muxer: Fmp4Muxer;
  initId: string;
  begun: boolean[];
  pending: Fmp4Sample[];
  pendingFrom: number | undefined;
  /** The lead's first frame, in the muxer's seconds (0, or the decode delay of B-frames). */
  startSeconds: number;
  /** The lead's newest frame and the gap before it, seconds from the segment's start. */
  lastLead: number;
  leadStep: number | undefined;
}

/** A frame's length before two frames tell (25 fps). */
const DEFAULT_FRAME_SECONDS = 0.04;

/** What most frames give: nothing to write yet (one list for all of them, not one each). */
const NOTHING: readonly WriterEvent[] = Object.freeze([]);

export function createRunWriter(options: RunWriterOptions): RunWriter {
  const { tracks } = options;
  const lead = Math.max(
    0,
    tracks.findIndex((t) => t.kind === 'video'),
  );
  const hasVideo = tracks.some((t) => t.kind === 'video');
  const target = options.segmentMs / 1000;
  const fragmentSeconds = (options.fragmentMs ?? 1000) / 1000;
  const clock = createSegmentClock();
  let segment: OpenSegment | undefined;
  /** The segment before, for carrying other tracks on across the cut. */
  let previous: { muxer: Fmp4Muxer; cutSeconds: number } | undefined;
  /** Where the open segment starts on the run's timeline, in seconds. */
  let runSeconds = 0;
  let previousEndMs: number | undefined;

  function flush(): WriterEvent[] {
    if (!segment || segment.pending.length === 0) return [];
    // Pieces, not one buffer: the spool gathers them into one write, so the samples are not
    // copied into a fragment-sized buffer first (at 2 Mbit/s a camera, that was its whole bitrate
    // again in allocations for the collector to account).
    const parts = segment.muxer.fragmentParts(segment.pending);
    segment.pending = [];
    segment.pendingFrom = undefined;
    return [{ kind: 'data', parts }];
  }

  function openAt(frame: MediaFrame, arrivalMs: number): WriterEvent[] {
    const muxer = createFmp4Muxer(tracks.map((t) => ({ kind: t.kind, codec: t.codec })));
    if (hasVideo) muxer.learn(lead, frame);
    const init = muxer.init();
    if (!init) return []; // the parameter sets are not known yet: wait for a keyframe that has them
    muxer.anchor(lead, frame.timestamp, 0);
    segment = {
      muxer,
      initId: createHash('sha256').update(init).digest('hex').slice(0, 16),
      begun: tracks.map((_, i) => i === lead),
      pending: [],
      startSeconds: muxer.seconds(lead, frame.timestamp),
      lastLead: 0,
      // Every field from the start: one that appears later gives the object another shape,
      // and the code that reads it for every frame sees several.
      pendingFrom: undefined,
      leadStep: undefined,
    };
    return [{ kind: 'open' }, { kind: 'data', parts: [init] }, ...append(lead, frame, arrivalMs)];
  }

  /** Another track's first frame of the segment: where it goes on the segment's timeline. */
  function placeOf(track: number, frame: MediaFrame): number {
    const open = segment!;
    const carried = previous?.muxer.anchored(track)
      ? open.startSeconds + previous.muxer.seconds(track, frame.timestamp) - previous.cutSeconds
      : undefined;
    return Math.max(0, carried ?? open.startSeconds + open.lastLead);
  }

  function append(track: number, frame: MediaFrame, arrivalMs: number): readonly WriterEvent[] {
    const open = segment!;
    if (!open.begun[track]) {
      if (tracks[track]!.kind === 'video' && !frame.keyframe) return NOTHING;
      open.muxer.anchor(track, frame.timestamp, placeOf(track, frame));
      open.begun[track] = true;
    }
    // Made only when a fragment is written (a few times a second, against dozens of frames).
    let out: WriterEvent[] | undefined;
    const seconds = open.muxer.seconds(track, frame.timestamp);
    if (track === lead) {
      const relative = seconds - open.startSeconds;
      if (relative > open.lastLead) open.leadStep = relative - open.lastLead;
      open.lastLead = Math.max(open.lastLead, relative);
      clock.observe(runSeconds + relative, arrivalMs);
      // Every keyframe starts a fragment: a range is cut at keyframes by whole fragments.
      if (frame.keyframe && hasVideo) out = flush();
    }
    open.pending.push({ track, frame });
    open.pendingFrom ??= seconds;
    if (seconds - open.pendingFrom >= fragmentSeconds) out = out ? [...out, ...flush()] : flush();
    return out ?? NOTHING;
  }

  function close(cutAt: number | undefined, arrivalMs: number): WriterEvent[] {
    const open = segment!;
    const out = flush();
    const seconds = cutAt ?? open.lastLead + (open.leadStep ?? DEFAULT_FRAME_SECONDS);
    const durationMs = Math.round(seconds * 1000);
    const estimated = clock.wallAt(runSeconds) ?? arrivalMs - durationMs;
    const span = segmentSpan(estimated, durationMs, previousEndMs);
    previousEndMs = span.endMs;
    runSeconds += seconds;
    clock.reset();
    previous = cutAt === undefined ? undefined : { muxer: open.muxer, cutSeconds: open.startSeconds + cutAt };
    segment = undefined;
    out.push({ kind: 'close', segment: { ...span, durationMs, codecs: open.muxer.codecs(), initId: open.initId } });
    return out;
  }

  return {
    get open() {
      return segment !== undefined;
    },
    push(track, frame, arrivalMs) {
      const isLead = track === lead;
      const seconds = segment && isLead ? segment.muxer.seconds(lead, frame.timestamp) - segment.startSeconds : 0;
      const step = segmentStep(segment !== undefined, { lead: isLead, keyframe: frame.keyframe || !hasVideo, seconds }, target);
      if (step === 'skip') return NOTHING;
      if (step === 'start') return openAt(frame, arrivalMs);
      if (step === 'cut') return [...close(seconds, arrivalMs), ...openAt(frame, arrivalMs)];
      return append(track, frame, arrivalMs);
    },
    finish() {
      return segment ? close(undefined, Date.now()) : NOTHING;
    },
  };
}
