import type { Media } from './media';
import type { RtpPacket } from './rtp-packet';

/** Connection stats in go2rtc's JSON shape (see relay-behaviour.md). */
export interface ConnectionInfo {
  id?: number;
  format_name?: string;
  protocol?: string;
  remote_addr?: string;
  source?: string;
  url?: string;
  sdp?: string;
  user_agent?: string;
  medias?: string[];
  receivers?: unknown[];
  senders?: unknown[];
  bytes_recv?: number;
  bytes_send?: number;
  /** RTP packets lost on the way (WebRTC: as the viewer reports them, or as the relay counts a publisher's). */
  packets_lost?: number;
  /** Percent of packets lost lately, as the viewer's last receiver report has it. */
  packet_loss?: number;
  /** WebRTC viewers: packets the viewer asked for again (NACK); those still in the last 128 are resent. */
  nacked_packets?: number;
}

/**
 * A dialed source: its medias are known; `start` makes packets flow into `sink` until the
 * connection ends (`closed` resolves, with the error if it failed) or `close` is called.
 */
export interface ProducerConnection {
  readonly medias: Media[];
  start(sink: (mediaIndex: number, packet: RtpPacket) => void): void;
  close(): void;
  readonly closed: Promise<Error | undefined>;
  info(): ConnectionInfo;
  /**
   * Sends a packet back to the source on one of its `sendonly` medias (two-way audio to a
   * camera); false when the packet could not go out. Only sources with a backchannel have it.
   */
  send?(mediaIndex: number, packet: RtpPacket): boolean;
  /**
   * Asks the source for a keyframe on a video media (a WebRTC publisher sends one on a PLI).
   * Sources that cannot be asked (RTSP cameras, files) leave it out: viewers wait for the next.
   */
  requestKeyframe?(mediaIndex: number): void;
}

export interface DialContext {
  /** Aborted when the stream no longer wants this source. */
  signal: AbortSignal;
  /** Name of the stream being fed (used by sources that publish back into the relay). */
  streamName: string;
}

/** Opens one source URL. Registered per scheme: `rtsp`, `ffmpeg`, `exec`, ... */
export type ProducerDialer = (url: string, context: DialContext) => Promise<ProducerConnection>;

export interface SchemeHandler {
  dial: ProducerDialer;
  /** Runs code on this machine (exec:, echo:, expr:): accepted from the config file only. */
  runsCode?: boolean;
  /**
   * Why this source may not come from the API or the console though it may be in the config
   * file (an `ffmpeg:` input that is a file on this machine, say), or undefined when it may.
   * `streamName`: the stream it is written under (it may not exist yet).
   */
  refuseFromApi?(source: string, streamName?: string): string | undefined;
}
