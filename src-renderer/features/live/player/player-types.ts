import { PLAYER_MODES } from '@shared/contract/preferences';

// The modes are part of the preferences contract: main keeps the one a user forced per stream.
export { PLAYER_MODES };
export type PlayerMode = (typeof PLAYER_MODES)[number];

export const MODE_LABEL: Record<PlayerMode, string> = { webrtc: 'WebRTC', mse: 'MSE', hls: 'HLS', mjpeg: 'MJPEG' };

/** Why a mode stopped playing: a closed union, so the fallback follows the reason, never a timer alone. */
export type PlayerFailure =
  | { reason: 'unsupported'; detail: string }
  | { reason: 'endpoint'; status?: number; detail: string }
  | { reason: 'connection'; detail: string }
  | { reason: 'timeout'; detail: string }
  | { reason: 'stalled'; detail: string }
  | { reason: 'decode'; detail: string }
  | { reason: 'offline'; detail: string };

export type FailureReason = PlayerFailure['reason'];

/** What a tile shows: never a blank box. */
export type PlayerState =
  | { status: 'idle' }
  | { status: 'connecting'; mode: PlayerMode; after?: { mode: PlayerMode; failure: PlayerFailure } }
  | { status: 'live'; mode: PlayerMode; after?: { mode: PlayerMode; failure: PlayerFailure } }
  /** Playing, but no new picture for a moment: the last one stays under the notice. */
  | { status: 'stalled'; mode: PlayerMode; after?: { mode: PlayerMode; failure: PlayerFailure } }
  | { status: 'reconnecting'; mode: PlayerMode; failure: PlayerFailure; inMs: number }
  /**
   * The relay's answer says the source cannot be had (`cause` in the user's words): the same
   * mode tries again after `inMs`, or is trying now; no other mode is tried for it.
   */
  | { status: 'unavailable'; mode: PlayerMode; failure: PlayerFailure; cause: string; inMs: number; trying: boolean }
  | { status: 'error'; failure: PlayerFailure; inMs: number };

/** One way of playing, behind one interface: start on an element, report, stop. */
export interface PlayerAdapter {
  /** Bytes of media received so far (for the bitrate in the caption). */
  bytes(): number;
  /**
   * The media's own bitrate where bytes per second of wall time would mislead (HLS fetches
   * segments in bursts); without it the caption divides bytes by wall time.
   */
  bitrate?(): number | undefined;
  /** Pictures shown so far, where the element cannot tell (MJPEG). */
  pictures?(): number;
  stop(): void;
}

export interface AdapterEvents {
  /** The first picture is on screen. */
  onLive(): void;
  onFailure(failure: PlayerFailure): void;
}

export interface AdapterTarget {
  /** Relay API base (the page origin in a browser). */
  base: string;
  stream: string;
  video: HTMLVideoElement;
  image: HTMLImageElement;
}

export function describeFailure(failure: PlayerFailure): string {
  switch (failure.reason) {
    case 'unsupported':
      return `not supported: ${failure.detail}`;
    case 'endpoint':
      return failure.status ? `HTTP ${failure.status}: ${failure.detail}` : failure.detail;
    default:
      return failure.detail;
  }
}
