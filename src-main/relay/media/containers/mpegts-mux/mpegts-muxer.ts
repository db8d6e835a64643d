import type { Codec, MediaFrame, MediaKind } from '@main/relay/core/media';
import { createDecodeTimeline, type DecodeTimeline } from '../../frames/decode-timeline';
import { reorderHint } from '../fmp4/reorder-hint';
import { createAdtsFramer } from './adts';
import { createAnnexBWriter } from './annex-b';
import { pesPacket, STREAM_ID_AUDIO, STREAM_ID_VIDEO } from './pes';
import { PAT_PID, patSection, PMT_PID, pmtSection, STREAM_TYPES } from './psi';
import { concat, packetize, type ContinuityCounter } from './ts-packetizer';
import { createTrackTimeline } from './track-timeline';

/** The first elementary stream's PID; track i is on FIRST_PID + i. */
const FIRST_PID = 0x100;
/**
 * PTS run this far ahead of the PCR (0.7 s, as ffmpeg's default mux delay), so a decoder that
 * follows the PCR has each frame in its buffer before the frame is due.
 */
const PTS_AHEAD_OF_PCR = 63000;

const MPEGTS_CODECS = ['H264', 'H265', 'MPEG4-GENERIC'] as const;

class UnsupportedCodecError extends Error {
  override name = 'UnsupportedCodecError';
}

/** A frame as written: its TS packets and where it sits on the output's time line. */
interface MuxedFrame {
  /** Whole 188-byte TS packets. */
  data: Uint8Array;
  kind: MediaKind;
  /** 90 kHz ticks from the start of the output (not wrapped). */
  time: number;
  keyframe: boolean;
}

export interface MpegTsMuxer {
  /** PAT and PMT: the start of the stream, and of each HLS segment so each can be played alone. */
  header(): Uint8Array;
  /**
   * One frame of track `index` (timestamps in the codec clock, RTP-style 32-bit wrapping ones
   * are fine). Undefined while the stream waits for its first video keyframe: output begins with
   * a decodable picture, and audio joins from there.
   */
  write(index: number, frame: MediaFrame): MuxedFrame | undefined;
  readonly stats: { frames: number; bytes: number; skipped: number };
}

interface TrackWriter {
  kind: MediaKind;
  pid: number;
  streamType: number;
  counter: ContinuityCounter;
  clockRate: number;
  payload(frame: MediaFrame): Uint8Array;
  /** Video: decode times (B-frames), made at the track's first frame, a keyframe with its SPS. */
  decoder?(first: MediaFrame): DecodeTimeline;
}

function trackWriter(codec: Codec, index: number): TrackWriter {
  const base = { pid: FIRST_PID + index, counter: { value: 0 }, clockRate: codec.clockRate };
  switch (codec.name) {
    case 'H264':
    case 'H265': {
      const annexB = createAnnexBWriter(codec.name, codec.fmtp);
      return {
        ...base,
        kind: 'video',
        streamType: STREAM_TYPES[codec.name],
        payload: (f) => annexB(f.data, f.keyframe),
        decoder: (first) => createDecodeTimeline({ hint: reorderHint(codec.name, codec.fmtp, first.data) }),
      };
    }
    case 'MPEG4-GENERIC': {
      const adts = createAdtsFramer(codec.fmtp);
      return { ...base, kind: 'audio', streamType: STREAM_TYPES.AAC_ADTS, payload: (f) => adts(f.data) };
    }
    default:
      throw new UnsupportedCodecError(`MPEG-TS output carries ${MPEGTS_CODECS.join(', ')} (AAC), not ${codec.name}`);
  }
}

/**
 * An MPEG-TS muxer for one output: PAT/PMT, one PES per frame (H.264/H.265 as Annex B with an
 * AUD and parameter sets before keyframes, AAC with ADTS headers), the PCR on the first video
 * PID (or the first audio one), continuity counters, and random_access_indicator on keyframes.
 */
export function createMpegTsMuxer(codecs: readonly Codec[]): MpegTsMuxer {
  if (codecs.length === 0) throw new UnsupportedCodecError('MPEG-TS output needs at least one track');
  const tracks = codecs.map(trackWriter);
  const pcrTrack = tracks.find((t) => t.kind === 'video') ?? tracks[0]!;
  const hasVideo = tracks.some((t) => t.kind === 'video');
  const timeline = createTrackTimeline();
  const patCounter: ContinuityCounter = { value: 0 };
  const pmtCounter: ContinuityCounter = { value: 0 };
  const pmt = pmtSection(
    pcrTrack.pid,
    tracks.map((t) => ({ streamType: t.streamType, pid: t.pid })),
  );
  const stats = { frames: 0, bytes: 0, skipped: 0 };
  const decoders = new Map<number, DecodeTimeline>();
  let started = !hasVideo;

  /**
   * Presentation and decode time (90 kHz ticks on the output's time line) of a track's frame.
   * Video decode times come from its decode timeline (frames/decode-timeline): equal to the
   * presentation times without B-frames, before them with.
   */
  function times(index: number, track: TrackWriter, frame: MediaFrame): { pts: number; dts: number } {
    let decoder = decoders.get(index);
    if (!decoder && track.decoder) {
      decoder = track.decoder(frame);
      decoders.set(index, decoder);
    }
    const time = timeline.time(index, frame.timestamp, track.clockRate, decoder?.delay);
    return decoder ? decoder.next(time, frame.keyframe) : { pts: time, dts: time };
  }

  return {
    stats,
    header: () => concat([packetize(PAT_PID, patCounter, patSection()), packetize(PMT_PID, pmtCounter, pmt)]),
    write(index, frame) {
      const track = tracks[index];
      if (!track) throw new RangeError(`MPEG-TS muxer has ${tracks.length} tracks, not a track ${index}`);
      if (!started && !(track.kind === 'video' && frame.keyframe)) {
        stats.skipped++;
        return undefined;
      }
      started = true;
      const { pts, dts } = times(index, track, frame);
      const keyframe = track.kind === 'audio' || frame.keyframe;
      // DTS only when it differs (B-frames); the PCR follows decode times, which only grow.
      const pes = pesPacket(
        track.kind === 'video' ? STREAM_ID_VIDEO : STREAM_ID_AUDIO,
        track.payload(frame),
        pts + PTS_AHEAD_OF_PCR,
        dts + PTS_AHEAD_OF_PCR,
      );
      const data = packetize(track.pid, track.counter, pes, { pcr: track === pcrTrack ? dts : undefined, randomAccess: keyframe });
      stats.frames++;
      stats.bytes += data.length;
      return { data, kind: track.kind, time: pts, keyframe };
    },
  };
}
