import type { ConnectionInfo } from './producer';
import type { MediaRequest, TrackMatch } from './negotiation';
import type { PacketSink, Track } from './track';

/** An output of a stream (an RTSP viewer, an MP4 download, ...). */
export interface Consumer {
  /** What this output accepts, one entry per media. */
  readonly requests: MediaRequest[];
  /**
   * A source of the stream this output must not be served by: the output IS that source
   * (`ffmpeg:cam#audio=opus` listed under `cam` reads `cam` and must not read itself).
   */
  readonly excludedSource?: string;
  /** Called once per negotiated track, in order, before packets flow; returns where they go. */
  attach(track: Track, match: TrackMatch): PacketSink;
  info(): ConnectionInfo;
  /** The relay closes a consumer when its stream is deleted or its source is gone for good. */
  close(reason: string): void;
}
