// What one RTMP server lets a connection cost before and after it may publish. Before, anyone
// who reaches rtmp.listen can open connections: each must stay cheap and short-lived. After,
// the publisher has logged in (or needed no login) and sends real video.

/**
 * Largest message once publishing (the field allows 16 MiB): a 4K keyframe fits several
 * times over. Also what a server we play from may send.
 */
export const MEDIA_MESSAGE_BYTES = 8 * 1024 * 1024;

export interface RtmpServerLimits {
  /**
   * From accept to publish: the handshake, connect, createStream and publish. ffmpeg and OBS
   * take milliseconds; a connection that stalls in between holds a socket and a slot for nothing.
   */
  setupTimeoutMs: number;
  /** Connections not yet publishing; the next one is closed at once (each holds an fd and buffers). */
  maxPendingConnections: number;
  /** Largest message before publish: commands only, a connect with every field is under 1 KiB. */
  maxMessageBytesBeforePublish: number;
}

export const DEFAULT_RTMP_LIMITS: RtmpServerLimits = {
  setupTimeoutMs: 10_000,
  maxPendingConnections: 64,
  maxMessageBytesBeforePublish: 64 * 1024,
};
