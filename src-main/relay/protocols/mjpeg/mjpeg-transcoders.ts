import type { Codec, MediaFrame } from '../../core/media';
import type { TaskRegistry } from '../../core/task-registry';
import type { SourceLink } from '../../media/frames/frame-consumer';
import { createJpegEncoder, type JpegEncoder } from './jpeg-encoder';
import type { PictureOrigin } from './snapshot-cache';

interface TranscoderViewer {
  onJpeg(jpeg: Uint8Array): void;
  /** The transcoder failed; the viewer's reply should end. */
  onEnd(reason: string): void;
}

export interface TranscoderSeat {
  /**
   * A frame from this viewer's consumer. Only the first viewer's frames are used (every viewer
   * gets the same frames at the same moment); `replay` marks the cached GOP a new consumer gets;
   * `source` is the source connection the frame came from.
   */
  feed(frame: MediaFrame, replay: boolean, source: SourceLink): void;
  leave(): void;
}

/** A transcoder's newest picture, and the source connection it came from. */
interface LivePicture {
  jpeg: Uint8Array;
  at: number;
  origin: PictureOrigin;
}

export interface MjpegTranscoders {
  join(streamName: string, codec: Codec, viewer: TranscoderViewer): TranscoderSeat;
  /** The newest picture of a stream's running transcoder (snapshots take it when it is fresh). */
  latest(streamName: string): LivePicture | undefined;
  close(): void;
}

export interface TranscoderOptions {
  tasks: TaskRegistry;
  ffmpegBinary?: string;
  /** ffmpeg's `-q:v` for the stream's pictures. */
  quality?: number;
}

interface Hub {
  encoder: JpegEncoder;
  seats: Seat[];
  latest?: LivePicture;
  /** Where the frames fed last came from. */
  origin?: PictureOrigin;
  /** Frames of the cached GOP written to a fresh transcoder before the live ones. */
  replayed: number;
  /** Pictures the encoder has given so far. */
  pictures: number;
  live: boolean;
}

interface Seat extends TranscoderSeat {
  viewer: TranscoderViewer;
}

/**
 * H.264/H.265 → MJPEG with ONE ffmpeg per stream, however many MJPEG viewers watch it: the first
 * viewer feeds it, all get its pictures, and the child stops when the last viewer leaves.
 */
export function createMjpegTranscoders(options: TranscoderOptions): MjpegTranscoders {
  const hubs = new Map<string, Hub>();

  // Not by the SDP's parameter sets: every keyframe carries its own (frames/), and the encoder
  // starts over when they change, so viewers from before and after a reconnect share one child.
  const hubKey = (streamName: string, codec: Codec) => `${streamName}\n${codec.name}`;

  function open(key: string, streamName: string, codec: Codec): Hub {
    const hub: Hub = {
      seats: [],
      replayed: 0,
      pictures: 0,
      live: false,
      encoder: createJpegEncoder({
        codec,
        tasks: options.tasks,
        description: `mjpeg transcoder for ${streamName}`,
        quality: options.quality ?? 5,
        ffmpegBinary: options.ffmpegBinary,
        onJpeg(jpeg) {
          // A fresh transcoder decodes the cached GOP to reach the newest picture. Its first
          // picture (the keyframe's) goes out as soon as it is made, so the viewer sees the
          // camera at once; the ones between it and the newest are old news and are left out.
          const index = hub.pictures++;
          if (index > 0 && index < hub.replayed - 1) return;
          if (hub.origin) hub.latest = { jpeg, at: Date.now(), origin: hub.origin };
          for (const seat of [...hub.seats]) seat.viewer.onJpeg(jpeg);
        },
        onFailure(error) {
          if (hubs.get(key) === hub) hubs.delete(key);
          for (const seat of [...hub.seats]) seat.viewer.onEnd(`MJPEG transcoding failed: ${error.message}`);
          hub.seats = [];
        },
      }),
    };
    hubs.set(key, hub);
    return hub;
  }

  return {
    join(streamName, codec, viewer) {
      const key = hubKey(streamName, codec);
      const hub = hubs.get(key) ?? open(key, streamName, codec);
      const seat: Seat = {
        viewer,
        feed(frame, replay, source) {
          if (hub.seats[0] !== seat) return;
          if (hub.origin?.source !== source || hub.origin.connection !== source.connection)
            hub.origin = { source, connection: source.connection };
          if (replay && !hub.live) {
            if (hub.encoder.write(frame)) hub.replayed++;
            return;
          }
          hub.live = true;
          hub.encoder.write(frame);
        },
        leave() {
          const index = hub.seats.indexOf(seat);
          if (index < 0) return;
          hub.seats.splice(index, 1);
          if (hub.seats.length > 0) return;
          hub.encoder.close();
          if (hubs.get(key) === hub) hubs.delete(key);
        },
      };
      hub.seats.push(seat);
      return seat;
    },
    latest(streamName) {
      let newest: LivePicture | undefined;
      for (const [key, hub] of hubs) {
        if (key.startsWith(`${streamName}\n`) && hub.latest && (!newest || hub.latest.at > newest.at)) newest = hub.latest;
      }
      return newest;
    },
    close() {
      for (const hub of hubs.values()) hub.encoder.close();
      hubs.clear();
    },
  };
}
