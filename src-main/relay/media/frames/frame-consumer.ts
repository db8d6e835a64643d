import type { Consumer } from '../../core/consumer';
import type { Codec, MediaFrame, MediaKind } from '../../core/media';
import type { MediaRequest, TrackMatch } from '../../core/negotiation';
import type { ConnectionInfo } from '../../core/producer';
import type { PacketSink, Track } from '../../core/track';
import { createDepacketizer, type Depacketizer } from '../codecs/depacketizer';
import { createH265ParameterSetRepair } from './keyframe-parameter-sets';

/** H.264 keyframes get their parameter sets in the depacketizer; H.265 ones here. */
const repairFor = (codec: Codec) => (codec.name === 'H265' ? createH265ParameterSetRepair(codec) : undefined);

/** The source connection a track's frames come from: `connection` stays the same while it lasts. */
export interface SourceLink {
  /** undefined while no connection feeds the track (the stream is idle, or the source is lost). */
  readonly connection: number | undefined;
}

/** One negotiated track of a frame consumer, in the order the stream attached them. */
export interface FrameTrack {
  index: number;
  kind: MediaKind;
  /** What the source connection announced; renewed when the source reconnects. */
  codec: Codec;
  /** Frames and errors of this track's depacketizer (stats, tests); a new one per source connection. */
  depacketizer: Depacketizer;
  /** Whether a picture taken from this track still belongs to the connection that feeds it. */
  readonly source: SourceLink;
}

export interface FrameConsumerOptions {
  requests: MediaRequest[];
  /** go2rtc's stats fields for this output: format_name, protocol, remote_addr, user_agent. */
  label: ConnectionInfo;
  onFrame(track: FrameTrack, frame: MediaFrame): void;
  /** The relay ends this output (stream deleted, publisher gone); the output ends its reply. */
  onClose(reason: string): void;
}

export interface FrameConsumer extends Consumer {
  readonly tracks: readonly FrameTrack[];
  /** Bytes the output wrote to its client, for the stats (`bytes_send`). */
  countSent(bytes: number): void;
}

/**
 * A consumer for outputs that work on whole frames (MP4, HLS, MJPEG, snapshots): each attached
 * track gets its own depacketizer, so the RTP the relay fans out comes to the output as access
 * units. The stream's GOP cache arrives first, so the first frame is the last keyframe. Video
 * keyframes always carry their parameter sets (from the SDP when the stream sends none), those
 * of the connection they come from: a source that reconnects gets a new depacketizer made from
 * its new SDP, so a camera back with another picture size shows it in its keyframes.
 */
export function createFrameConsumer(options: FrameConsumerOptions): FrameConsumer {
  const tracks: FrameTrack[] = [];
  let sent = 0;
  let closed = false;
  return {
    requests: options.requests,
    tracks,
    attach(track: Track, match: TrackMatch): PacketSink {
      const frameTrack: FrameTrack = {
        index: tracks.length,
        kind: track.media.kind,
        codec: match.codec,
        depacketizer: createDepacketizer(match.codec),
        source: track,
      };
      let repair = repairFor(match.codec);
      tracks.push(frameTrack);
      return {
        write(packet) {
          if (closed) return true;
          // Indexed: most packets end no frame, and a for-of made an iterator for each of them.
          const frames = frameTrack.depacketizer.push(packet);
          for (let i = 0; i < frames.length; i++) options.onFrame(frameTrack, repair ? repair(frames[i]!) : frames[i]!);
          return true;
        },
        onDrain: () => undefined,
        onSourceChange(codec) {
          if (closed) return;
          // A half-received frame of the old connection is dropped with its depacketizer.
          frameTrack.codec = codec;
          frameTrack.depacketizer = createDepacketizer(codec);
          repair = repairFor(codec);
        },
      };
    },
    info: () => ({
      ...options.label,
      medias: tracks.map((t) => `${t.kind}, sendonly, ${t.codec.name}`),
      bytes_send: sent,
    }),
    close(reason) {
      if (closed) return;
      closed = true;
      options.onClose(reason);
    },
    countSent(bytes) {
      sent += bytes;
    },
  };
}
