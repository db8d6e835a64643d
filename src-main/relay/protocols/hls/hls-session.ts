import type { MediaFrame } from '../../core/media';
import type { FrameOutput } from '../../media/frames/attach-output';
import type { FrameTrack } from '../../media/frames/frame-consumer';
import { fromAvcc } from '../../media/codecs/h264/nal';
import { parameterSetKey } from '../../media/frames/keyframe-parameter-sets';
import { HttpError } from '../../../platform/http/http-error';
import { mediaPlaylist } from './playlists';
import type { SegmentFormat } from './segment-format';
import { createSegmenter, type Segmenter, type SegmentUnit } from './segmenter';
import { createWaiters } from './session-waiters';
import { describeVariant, playlistCodecs, videoSps, type VariantCodecs } from './variant';

export interface HlsTimings {
  /** The session ends this long after its last request (and none is waiting). */
  keepaliveMs: number;
  /** A segment ends at the first keyframe after this many seconds. */
  minSegmentSeconds: number;
  maxSegmentSeconds: number;
  /** Segments listed in the playlist; a few more are kept for clients a reload behind. */
  listedSegments: number;
  keptSegments: number;
  /** How long a playlist request waits for the first segment, a segment request for its segment. */
  waitMs: number;
  /** Low-Latency HLS part length (seconds, at most); undefined: no parts. */
  partSeconds?: number;
}

export const DEFAULT_HLS_TIMINGS: HlsTimings = {
  keepaliveMs: 5000,
  minSegmentSeconds: 0.9,
  maxSegmentSeconds: 10,
  listedSegments: 4,
  keptSegments: 7,
  waitMs: 8000,
  partSeconds: 0.3,
};

/** A blocking playlist reload (Low-Latency HLS): answer once this segment, or this part of it, is out. */
export interface PlaylistWait {
  /** `_HLS_msn`: a media sequence number. */
  msn: number;
  /** `_HLS_part`: a part index in that segment. */
  part?: number;
}

/** One viewer's HLS session: its consumer of the stream, its segments, and its expiry. */
export interface HlsSession {
  readonly id: string;
  readonly container: 'ts' | 'fmp4';
  /** Plays a named stream, which players on any site may read (not a source URL's temporary stream). */
  readonly named: boolean;
  readonly closed: boolean;
  /** Frames the container could not take (skipped, the session goes on). */
  readonly skippedFrames: number;
  /** What the master playlist says; waits (briefly) for a keyframe when the SDP had no SPS. */
  variant(): Promise<VariantCodecs>;
  /** The media playlist; with `wait`, once what it names is out (a blocking reload). */
  playlist(wait?: PlaylistWait): Promise<string>;
  segment(sequence: number): Promise<Uint8Array>;
  /** Part `index` of segment `sequence` (Low-Latency HLS); the one being filled is waited for. */
  part(sequence: number, index: number): Promise<Uint8Array>;
  init(): Promise<Uint8Array>;
  /** Runs one client request: the session stays alive while it runs and `keepaliveMs` after. */
  serve<T>(work: () => Promise<T>): Promise<T>;
  close(reason: string): void;
}

export interface HlsSessionParts {
  id: string;
  output: FrameOutput;
  format: SegmentFormat;
  timings: HlsTimings;
  /** Frames the stream delivered while the output was attaching (the cached GOP), in order. */
  early: ReadonlyArray<[FrameTrack, MediaFrame]>;
  onClosed(session: HlsSession, reason: string): void;
}

export interface HlsSessionHandle {
  session: HlsSession;
  /** Where the output's frames go from now on. */
  push(track: FrameTrack, frame: MediaFrame): void;
}

/**
 * Builds a session around an attached output. Frames go through the container format into the
 * segmenter; requests wait (up to `waitMs`) for the segment, SPS or init segment they need.
 */
export function createHlsSession(parts: HlsSessionParts): HlsSessionHandle {
  const { id, output, format, timings } = parts;
  const segmenter: Segmenter<SegmentUnit> = createSegmenter({
    minSeconds: timings.minSegmentSeconds,
    maxSeconds: timings.maxSegmentSeconds,
    keep: timings.keptSegments,
    build: (units) => format.build(units),
    partSeconds: timings.partSeconds,
  });
  const tracks = output.consumer.tracks;
  const videoTrack = tracks.find((t) => t.kind === 'video');
  /** The SPS of the first keyframe, for a source whose SDP had none (kept alone: a few bytes). */
  let inBandSps: Uint8Array | undefined;
  let closed = false;
  let inFlight = 0;
  let skipped = 0;
  let expiry: NodeJS.Timeout | undefined;
  const waiters = createWaiters(() => closed);
  const { waitUntil, notify } = waiters;

  function armExpiry(): void {
    clearTimeout(expiry);
    expiry = setTimeout(() => {
      if (inFlight > 0) return armExpiry();
      session.close('no request for a while');
    }, timings.keepaliveMs);
  }

  /** The SPS (and VPS) the session's video was written with so far. */
  let parameterSets: string | undefined;

  /**
   * fMP4 segments hang off one init segment, which describes one picture: when the source
   * comes back with other parameter sets (another size), the session ends and the player opens
   * a new one. MPEG-TS carries its parameter sets in every segment and goes on.
   */
  function pictureChanged(track: FrameTrack, frame: MediaFrame): boolean {
    if (format.container !== 'fmp4' || track !== videoTrack || !frame.keyframe) return false;
    const key = parameterSetKey(track.codec.name, frame.data);
    if (key === undefined) return false;
    const changed = parameterSets !== undefined && key !== parameterSets;
    parameterSets = key;
    return changed;
  }

  function push(track: FrameTrack, frame: MediaFrame): void {
    if (closed) return;
    if (pictureChanged(track, frame)) return session.close('the source changed its picture (new parameter sets)');
    if (!inBandSps && track === videoTrack && frame.keyframe) {
      const sps = videoSps({ ...track.codec, fmtp: undefined }, fromAvcc(frame.data));
      if (sps) inBandSps = Uint8Array.from(sps);
    }
    try {
      const unit = format.write(track, frame);
      if (unit) segmenter.push(unit);
    } catch {
      // A frame the container cannot take (an oversized AAC frame, a corrupt SPS) is skipped:
      // it must not throw into the stream's fan-out, and the next keyframe heals the picture.
      skipped++;
    }
    // Requests wait for a segment, an SPS or the init segment: each frame may have brought it.
    if (waiters.waiting()) notify();
  }

  const gone = () => new HttpError(404, `HLS session ${id} has ended: open /api/stream.m3u8 again`);

  const session: HlsSession = {
    id,
    container: format.container,
    named: !output.temporary,
    get closed() {
      return closed;
    },
    get skippedFrames() {
      return skipped;
    },
    async variant() {
      const spsOf = () => (videoTrack ? (videoSps(videoTrack.codec) ?? inBandSps) : undefined);
      if (videoTrack) await waitUntil(() => spsOf() !== undefined, timings.waitMs);
      const described = describeVariant(tracks.map((t) => ({ codec: t.codec, sps: t === videoTrack ? spsOf() : undefined })));
      const exact = format.codecs?.();
      return exact ? { ...described, codecs: playlistCodecs(exact) } : described;
    },
    async playlist(wait) {
      await waitUntil(() => segmenter.segments.length > 0, timings.waitMs);
      if (wait) {
        // A reload may ask for what comes next, not for what is far ahead.
        if (wait.msn > segmenter.pending + 1) throw new HttpError(400, `_HLS_msn=${wait.msn} is too far ahead: the next segment is ${segmenter.pending}`);
        if (wait.part !== undefined && timings.partSeconds === undefined) throw new HttpError(400, '_HLS_part: this session has no parts');
        const out = () => wait.msn < segmenter.pending || (wait.msn === segmenter.pending && wait.part !== undefined && wait.part < segmenter.pendingParts.length);
        // At most three target durations, as the specification says; then the playlist as it is.
        await waitUntil(out, 3 * segmenter.targetDuration * 1000);
      }
      if (closed) throw gone();
      return playlistText(segmenter, format, timings, id, continuation);
    },
    async part(sequence, index) {
      if (timings.partSeconds === undefined) throw new HttpError(404, `HLS session ${id} has no parts`);
      checkKept(segmenter, id, sequence);
      const find = () => (sequence < segmenter.pending ? segmenter.get(sequence)?.parts[index] : segmenter.pendingParts[index]);
      // The part being filled (a preload hint): wait for it, or for its segment to end without it.
      await waitUntil(() => find() !== undefined || sequence < segmenter.pending, timings.waitMs + timings.maxSegmentSeconds * 1000);
      if (closed) throw gone();
      const part = find();
      if (!part) throw new HttpError(404, `part ${index} of segment ${sequence} of HLS session ${id} does not exist: the segment ended with ${segmenter.get(sequence)?.parts.length ?? 0} parts`);
      output.consumer.countSent(part.data.length);
      return part.data;
    },
    async segment(sequence) {
      checkKept(segmenter, id, sequence);
      // The segment being filled now: wait for it, as a client that read ahead expects.
      await waitUntil(() => segmenter.get(sequence) !== undefined, timings.waitMs + timings.maxSegmentSeconds * 1000);
      if (closed) throw gone();
      const segment = segmenter.get(sequence);
      if (!segment) throw new HttpError(404, `segment ${sequence} of HLS session ${id} was not ready in time`);
      output.consumer.countSent(segment.data.length);
      return segment.data;
    },
    async init() {
      if (format.container !== 'fmp4') throw new HttpError(404, `HLS session ${id} serves MPEG-TS segments, which have no init.mp4`);
      // The init segment needs the video's parameter sets: from the SDP, or the first keyframe.
      await waitUntil(() => format.init() !== undefined, timings.waitMs);
      if (closed) throw gone();
      const init = format.init();
      if (!init) throw new HttpError(404, `HLS session ${id} has no init segment yet: no keyframe with parameter sets came in time`);
      output.consumer.countSent(init.length);
      return init;
    },
    async serve(work) {
      if (closed) throw gone();
      inFlight++;
      armExpiry();
      try {
        return await work();
      } finally {
        inFlight--;
        if (!closed) armExpiry();
      }
    },
    close(reason) {
      if (closed) return;
      closed = true;
      clearTimeout(expiry);
      output.release();
      notify();
      parts.onClosed(session, reason);
    },
  };

  // The cached GOP is in: it is the first segment, ending at the live edge, so the first
  // playlist and segment answer at once instead of a GOP later.
  for (const [track, frame] of parts.early) push(track, frame);
  /** The segment that continues the live-edge cut (-1: none), so not independent. */
  const continuation = parts.early.length > 0 && segmenter.cutAtLiveEdge() ? segmenter.pending : -1;
  armExpiry();
  return { session, push };
}

const describeRange = (from: number, to: number) => (to < from ? 'none yet' : `${from}..${to}`);

/** A segment number a request may ask for: one still kept, or the one being filled. */
function checkKept(segmenter: Segmenter<SegmentUnit>, id: string, sequence: number): void {
  const oldest = segmenter.segments[0]?.sequence ?? segmenter.pending;
  if (sequence < oldest) throw new HttpError(404, `segment ${sequence} of HLS session ${id} is no longer kept (kept: ${describeRange(oldest, segmenter.pending - 1)})`);
  if (sequence > segmenter.pending) throw new HttpError(404, `segment ${sequence} of HLS session ${id} does not exist yet (the next is ${segmenter.pending})`);
}

/** The media playlist of the segments listed now; `continuation` is the segment after the live-edge cut (-1: none). */
function playlistText(segmenter: Segmenter<SegmentUnit>, format: SegmentFormat, timings: HlsTimings, id: string, continuation: number): string {
  const listed = segmenter.segments.slice(-timings.listedSegments);
  const text = mediaPlaylist({
    segments: listed,
    next: segmenter.pending,
    targetDuration: segmenter.targetDuration,
    segmentUri: `${format.container === 'ts' ? 'segment.ts' : 'segment.m4s'}?id=${id}&n=`,
    mapUri: format.container === 'fmp4' ? `init.mp4?id=${id}` : undefined,
    // Independent once every listed segment starts at a keyframe: not a forced cut, and
    // the one after the live-edge cut (it starts between keyframes) is no longer listed.
    independent: segmenter.stats.forcedCuts === 0 && listed.every((segment) => segment.sequence > continuation),
    lowLatency:
      timings.partSeconds === undefined
        ? undefined
        : { partTarget: timings.partSeconds, partUri: `${format.container === 'ts' ? 'part.ts' : 'part.m4s'}?id=${id}&n=`, pendingParts: segmenter.pendingParts },
  });
  return text;
}
