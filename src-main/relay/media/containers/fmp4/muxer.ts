import type { Codec, MediaFrame, MediaKind } from '@main/relay/core/media';
import { createDecodeTimeline, type DecodeTimeline } from '../../frames/decode-timeline';
import { movieFragment, movieFragmentParts, NON_SYNC_SAMPLE, SYNC_SAMPLE, type FragmentSample, type TrackRun } from './fragment';
import { initSegment } from './init-segment';
import { hasParameterSets, parameterSetsFromAccessUnit, parameterSetsFromFmtp, type ParameterSets } from './parameter-sets';
import { intrinsicDuration } from './sample-duration';
import { reorderHintFromSps } from './reorder-hint';
import type { Rotation } from './rotation';
import {
  describeTrack,
  provisionalCodecString,
  UnsupportedCodecError,
  fmp4Carries,
  FMP4_CODECS,
  type TrackDescription,
} from './sample-entry';
import { TrackTimeline } from './track-timeline';

export interface Fmp4TrackInput {
  kind: MediaKind;
  codec: Codec;
  /** Video: how players should turn the picture, clockwise (`stream.mp4?rotate=90`). */
  rotate?: Rotation;
}

export interface Fmp4Sample {
  /** Index into the muxer's tracks. */
  track: number;
  frame: MediaFrame;
}

export interface Fmp4Muxer {
  readonly tracks: readonly Fmp4TrackInput[];
  /** Takes parameter sets from a video keyframe (fragment() does this too); init() needs them first. */
  learn(track: number, frame: MediaFrame): void;
  /** `ftyp` + `moov`, once every video track has its parameter sets (from its SDP or a keyframe); else undefined. */
  init(): Uint8Array | undefined;
  /** RFC 6381 codecs of the tracks, `avc1.64001F,mp4a.40.2` (exact once init() has answered). */
  codecs(): string;
  /** `video/mp4; codecs="..."`. */
  contentType(): string;
  /** Places track `track`'s frame with `timestamp` at `seconds` of the file; call before the track's first sample. */
  anchor(track: number, timestamp: number, seconds: number): void;
  /** Whether a track has a place on the timeline yet (anchored, or has had a sample). */
  anchored(track: number): boolean;
  /** Where a frame would go on the file's timeline, in seconds (for duration limits). */
  seconds(track: number, timestamp: number): number;
  /**
   * `moof` + `mdat` for the samples, in the order given per track (a `traf` per track). The
   * sequence number grows by one a call; a track's `tfdt` is its first sample's decode time; a
   * sample lasts until the next one of its track in this call, the last one as long as the codec
   * says (audio) or as the gap before it (video).
   */
  fragment(samples: readonly Fmp4Sample[]): Uint8Array;
  /** The same fragment as pieces written one after another (the boxes, then each sample's bytes), for a gathering write. */
  fragmentParts(samples: readonly Fmp4Sample[]): Uint8Array[];
}

/** 1/25 s: the guess for a video frame before two timestamps tell. */
const DEFAULT_VIDEO_FPS = 25;

/**
 * A fragmented-MP4 muxer for the relay's tracks: H.264 (avc1), H.265 (hvc1), AAC (mp4a),
 * Opus, G.711 (alaw/ulaw) and FLAC. Frames are `MediaFrame`s as the frame consumer gives them.
 * Throws UnsupportedCodecError for a codec MP4 does not carry here.
 */
export function createFmp4Muxer(tracks: ReadonlyArray<Fmp4TrackInput>): Fmp4Muxer {
  if (tracks.length === 0) throw new UnsupportedCodecError('an MP4 needs at least one track');
  for (const t of tracks) {
    if (!fmp4Carries(t.codec.name))
      throw new UnsupportedCodecError(`MP4 cannot carry ${t.kind} ${t.codec.name}: it takes ${FMP4_CODECS.join(', ')}`);
  }
  const sets: ParameterSets[] = tracks.map((t) => parameterSetsFromFmtp(t.codec.name, t.codec.fmtp));
  const needsSets = (i: number) => tracks[i]!.kind === 'video';
  const timelines = tracks.map((t, i) => {
    const timescale = t.codec.name === 'OPUS' ? 48000 : t.codec.clockRate;
    return new TrackTimeline(timescale, t.codec.clockRate, needsSets(i) ? () => decodeTimeline(i, timescale) : undefined);
  });
  let descriptions: TrackDescription[] | undefined;
  let sequence = 0;
  // Audio needs nothing from the stream: a bad SDP (AAC without config=) fails here, not later.
  const audioDescriptions = tracks.map((t, i) => (needsSets(i) ? undefined : describeTrack(t.kind, t.codec, sets[i]!, i + 1)));

  const checkTrack = (track: number) => {
    if (!Number.isInteger(track) || track < 0 || track >= tracks.length)
      throw new RangeError(`no track ${track}: the muxer has ${tracks.length}`);
  };

  function learn(track: number, frame: MediaFrame): void {
    checkTrack(track);
    if (!needsSets(track) || !frame.keyframe) return;
    const found = parameterSetsFromAccessUnit(tracks[track]!.codec.name, frame.data);
    const current = sets[track]!;
    // Sets from the stream replace those of the SDP, which cameras sometimes get wrong.
    if (hasParameterSets(tracks[track]!.codec.name, found))
      sets[track] = { vps: found.vps.length ? found.vps : current.vps, sps: found.sps, pps: found.pps };
  }

  /**
   * Video decode times (B-frames), made when the track starts: by then its keyframe has given
   * the SPS, whose reorder depth lets the first frames be timed right (see frames/decode-timeline).
   */
  function decodeTimeline(track: number, timescale: number): DecodeTimeline {
    const sps = sets[track]!.sps[0];
    const hint = sps ? reorderHintFromSps(tracks[track]!.codec.name, sps) : undefined;
    const toTimescale = (ticks: number) => Math.round((ticks * timescale) / 90000);
    return createDecodeTimeline({
      hint: hint && {
        reorderDepth: hint.reorderDepth,
        frameDuration: hint.frameDuration === undefined ? undefined : toTimescale(hint.frameDuration),
      },
      defaultFrameDuration: Math.round(timescale / DEFAULT_VIDEO_FPS),
    });
  }

  function describe(): TrackDescription[] | undefined {
    if (descriptions) return descriptions;
    if (tracks.some((t, i) => needsSets(i) && !hasParameterSets(t.codec.name, sets[i]!))) return undefined;
    descriptions = tracks.map((t, i) => audioDescriptions[i] ?? { ...describeTrack(t.kind, t.codec, sets[i]!, i + 1), rotate: t.rotate });
    return descriptions;
  }

  function durationOf(track: number, frame: MediaFrame, nextTime: number | undefined, time: number): number {
    const timeline = timelines[track]!;
    if (nextTime !== undefined && nextTime > time) return nextTime - time;
    const input = tracks[track]!;
    const own = intrinsicDuration(input.codec, frame);
    if (own !== undefined && own > 0) return Math.round((own * timeline.timescale) / input.codec.clockRate);
    return timeline.lastDelta ?? Math.round(timeline.timescale / DEFAULT_VIDEO_FPS);
  }

  function codecs(): string {
    const described = describe();
    return tracks.map((t, i) => (described?.[i] ?? audioDescriptions[i])?.codecString ?? provisionalCodecString(t.codec)).join(',');
  }

  return {
    tracks,
    learn,
    init() {
      const described = describe();
      return described ? initSegment(described) : undefined;
    },
    codecs,
    contentType: () => `video/mp4; codecs="${codecs()}"`,
    anchor(track, timestamp, seconds) {
      checkTrack(track);
      timelines[track]!.anchor(timestamp, seconds);
    },
    anchored(track) {
      checkTrack(track);
      return timelines[track]!.anchored;
    },
    seconds(track, timestamp) {
      checkTrack(track);
      const timeline = timelines[track]!;
      return timeline.peek(timestamp) / timeline.timescale;
    },
    fragment(samples) {
      const runs = runsOf(samples);
      return movieFragment(++sequence, runs);
    },
    fragmentParts(samples) {
      const runs = runsOf(samples);
      return movieFragmentParts(++sequence, runs);
    },
  };

  /** The samples as track runs (a sample lasts until the next of its track), in track order. */
  function runsOf(samples: readonly Fmp4Sample[]): TrackRun[] {
    const byTrack = new Map<number, MediaFrame[]>();
    for (const { track, frame } of samples) {
      learn(track, frame);
      const list = byTrack.get(track);
      if (list) list.push(frame);
      else byTrack.set(track, [frame]);
    }
    const runs: TrackRun[] = [];
    for (const [track, frames] of [...byTrack.entries()].sort(([a], [b]) => a - b)) {
      const timeline = timelines[track]!;
      const times = frames.map((f) => timeline.take(f.timestamp, f.keyframe));
      const video = tracks[track]!.kind === 'video';
      const out: FragmentSample[] = frames.map((frame, i) => ({
        duration: durationOf(track, frame, times[i + 1]?.dts, times[i]!.dts),
        flags: !video || frame.keyframe ? SYNC_SAMPLE : NON_SYNC_SAMPLE,
        data: frame.data,
        compositionOffset: times[i]!.pts - times[i]!.dts,
      }));
      runs.push({ trackId: track + 1, baseTime: times[0]!.dts, samples: out });
    }
    return runs;
  }
}
