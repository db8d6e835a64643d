import type { MediaFrame } from '../../core/media';
import type { FrameOutput } from '../../media/frames/attach-output';
import type { FrameTrack } from '../../media/frames/frame-consumer';
import { fromAvcc } from '../../media/codecs/h264/nal';
import { parameterSetKey } from '../../media/frames/keyframe-parameter-sets';
import { HttpError } from '@main/platform/http/http-error';
import type { PlaylistWait } from './blocking-reload';
import { createPlaylistRequests } from './playlist-requests';
import { mediaPlaylist, segmentsToList } from './playlists';
import type { SegmentFormat } from './segment-format';
import { createSegmenter, type Segmenter, type SegmentUnit } from './segmenter';
import { createWaiters } from './session-waiters';
import { describeVariant, playlistCodecs, videoSps, type VariantCodecs } from './variant';

export interface HlsTimings {
  /** The session ends this long after its last request (and none is waiting). */
  keepaliveMs: number;
  /** A segment ends at the first keyframe after this many seconds. */
  minSegmentSeconds: number;
  /** The highest target duration; a stream without keyframes in time is cut below it. */
  maxSegmentSeconds: number;
  /** The first playlist lists this many segments, cut from the session's first GOP. */
  startSegments: number;
  /** Segments listed in the playlist (at least; more when they span less than three target durations). */
  listedSegments: number;
  /** Segments kept: those a playlist no longer lists stay for clients a reload behind. */
  keptSegments: number;
  /** How long the first playlist waits for its segments, a segment request for its segment. */
  waitMs: number;
  /** Low-Latency HLS part length (seconds, at most); undefined: no parts. */
  partSeconds?: number;
}

export const DEFAULT_HLS_TIMINGS: HlsTimings = {
  keepaliveMs: 5000,
  minSegmentSeconds: 0.9,
  maxSegmentSeconds: 10,
  // Players start three segments from the end (Chromium's own player takes the last three).
  startSegments: 3,
  listedSegments: 4,
  // A segment a playlist dropped stays out as long as the segment plus a playlist lasts (RFC 8216 6.2.2).
  keptSegments: 9,
  waitMs: 8000,
  partSeconds: 0.3,
};

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

/** The session's segmenter, cut to its timings, its segments built by the container format. */
function segmenterFor(timings: HlsSessionParts['timings'], format: HlsSessionParts['format']): Segmenter<SegmentUnit> {
  return createSegmenter({
    minSeconds: timings.minSegmentSeconds,
    maxSeconds: timings.maxSegmentSeconds,
    keep: timings.keptSegments,
    startSegments: timings.startSegments,
    build: (units) => format.build(units),
    partSeconds: timings.partSeconds,
  });
}

/**
 * Builds a session around an attached output. Frames go through the container format into the
 * segmenter; requests wait (up to `waitMs`) for the segment, SPS or init segment they need.
 */
export function createHlsSession(parts: HlsSessionParts): HlsSessionHandle {
  const { id, output, format, timings } = parts;
  const segmenter = segmenterFor(timings, format);
  /** Wall-clock milliseconds of second 0 of the output's time line (EXT-X-PROGRAM-DATE-TIME), from the live edge. */
  let epochMs: number | undefined;
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
  const playlistDue = createPlaylistRequests({
    id,
    segmenter,
    partSeconds: timings.partSeconds,
    waitMs: timings.waitMs,
    waitUntil,
    isClosed: () => closed,
  });

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

  /** A frame through the container: the unit to segment, if it makes one. */
  function write(track: FrameTrack, frame: MediaFrame): SegmentUnit | undefined {
    if (pictureChanged(track, frame)) {
      session.close('the source changed its picture (new parameter sets)');
      return undefined;
    }
    if (!inBandSps && track === videoTrack && frame.keyframe) {
      const sps = videoSps({ ...track.codec, fmtp: undefined }, fromAvcc(frame.data));
      if (sps) inBandSps = Uint8Array.from(sps);
    }
    try {
      return format.write(track, frame);
    } catch {
      // A frame the container cannot take (an oversized AAC frame, a corrupt SPS) is skipped:
      // it must not throw into the stream's fan-out, and the next keyframe heals the picture.
      skipped++;
      return undefined;
    }
  }

  function push(track: FrameTrack, frame: MediaFrame): void {
    if (closed) return;
    const unit = write(track, frame);
    if (unit) {
      epochMs ??= Date.now() - unit.time / 90;
      segmenter.push(unit);
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
      await playlistDue(wait);
      if (closed) throw gone();
      return playlistText(segmenter, format, timings, id, epochMs);
    },
    async part(sequence, index) {
      if (timings.partSeconds === undefined) throw new HttpError(404, `HLS session ${id} has no parts`);
      checkKept(segmenter, id, sequence);
      const find = () => (sequence < segmenter.pending ? segmenter.get(sequence)?.parts[index] : segmenter.pendingParts[index]);
      // The part being filled (a preload hint): wait for it, or for its segment to end without it.
      await waitUntil(() => find() !== undefined || sequence < segmenter.pending, timings.waitMs + timings.maxSegmentSeconds * 1000);
      if (closed) throw gone();
      const part = find();
      if (!part)
        throw new HttpError(
          404,
          `part ${index} of segment ${sequence} of HLS session ${id} does not exist: the segment ended with ${segmenter.get(sequence)?.parts.length ?? 0} parts`,
        );
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

  // The cached GOP goes first: with the live frames up to the next keyframe it is the session's
  // first segments, there a GOP after the first request at most instead of three. Its last frame
  // is the live edge, which dates the time line.
  const early = parts.early.map(([track, frame]) => write(track, frame)).filter((unit) => unit !== undefined);
  if (early.length > 0) epochMs = Date.now() - early.at(-1)!.time / 90;
  for (const unit of early) segmenter.push(unit);
  armExpiry();
  return { session, push };
}

const describeRange = (from: number, to: number) => (to < from ? 'none yet' : `${from}..${to}`);

/** A segment number a request may ask for: one still kept, or the one being filled. */
function checkKept(segmenter: Segmenter<SegmentUnit>, id: string, sequence: number): void {
  const oldest = segmenter.segments[0]?.sequence ?? segmenter.pending;
  if (sequence < oldest)
    throw new HttpError(
      404,
      `segment ${sequence} of HLS session ${id} is no longer kept (kept: ${describeRange(oldest, segmenter.pending - 1)})`,
    );
  if (sequence > segmenter.pending)
    throw new HttpError(404, `segment ${sequence} of HLS session ${id} does not exist yet (the next is ${segmenter.pending})`);
}

/** The media playlist of the segments listed now. */
function playlistText(
  segmenter: Segmenter<SegmentUnit>,
  format: SegmentFormat,
  timings: HlsTimings,
  id: string,
  epochMs: number | undefined,
): string {
  const text = mediaPlaylist({
    segments: segmentsToList(segmenter.segments, timings.listedSegments, segmenter.targetDuration),
    next: segmenter.pending,
    targetDuration: segmenter.targetDuration,
    segmentUri: `${format.container === 'ts' ? 'segment.ts' : 'segment.m4s'}?id=${id}&n=`,
    mapUri: format.container === 'fmp4' ? `init.mp4?id=${id}` : undefined,
    epochMs,
    lowLatency:
      timings.partSeconds === undefined
        ? undefined
        : {
            partTarget: timings.partSeconds,
            partUri: `${format.container === 'ts' ? 'part.ts' : 'part.m4s'}?id=${id}&n=`,
            pendingParts: segmenter.pendingParts,
          },
  });
  return text;
}
