import type { Consumer } from '../core/consumer';
import type { Codec, MediaFrame, MediaKind } from '../core/media';
import type { MediaRequest, TrackMatch } from '../core/negotiation';
import type { ConnectionInfo } from '../core/producer';
import type { PacketSink, Track } from '../core/track';
import { createDepacketizer, type Depacketizer } from '../codecs/depacketizer';

/** One negotiated track of a frame consumer, in the order the stream attached them. */
export interface FrameTrack {
  index: number;
  kind: MediaKind;
  codec: Codec;
  /** Frames and errors of this track's depacketizer (stats, tests). */
  readonly depacketizer: Depacketizer;
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
 * units. The stream's GOP cache arrives first, so the first frame is the last keyframe.
 */
export function createFrameConsumer(options: FrameConsumerOptions): FrameConsumer {
  const tracks: FrameTrack[] = [];
  let sent = 0;
  let closed = false;
  return {
    requests: options.requests,
    tracks,
    attach(track: Track, match: TrackMatch): PacketSink {
      const frameTrack: FrameTrack = { index: tracks.length, kind: track.media.kind, codec: match.codec, depacketizer: createDepacketizer(match.codec) };
      tracks.push(frameTrack);
      return {
        write(packet) {
          if (closed) return true;
          for (const frame of frameTrack.depacketizer.push(packet)) options.onFrame(frameTrack, frame);
          return true;
        },
        onDrain: () => undefined,
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
