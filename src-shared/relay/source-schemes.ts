/**
 * Source schemes as the console and the relay both see them: written once here so the form's
 * hint cannot list a scheme the relay then refuses.
 */

/**
 * Schemes that run a command on this machine. The relay refuses them from the HTTP API and the
 * console (they are accepted from the config file only), whether or not their handler is
 * registered, so a later config cannot bring them back through the API.
 */
export const CODE_RUNNING_SCHEMES: readonly string[] = ['exec', 'echo', 'expr'];

export interface SourceHint {
  scheme: string;
  /** How the scheme is written in front of the rest of the source. */
  prefix: string;
  /** A source of this scheme the relay accepts from the console (checked by a test against the relay). */
  example: string;
  /** How the whole source is written, where its prefix alone would not say (`relay://<relay>/<stream>`). */
  shape?: string;
}

/**
 * The schemes the add/edit form suggests, in the order users reach for them. Each is one the
 * relay registers and accepts from the API; a test in src-main dials none of them but checks
 * every example against the relay's own source check.
 */
export const SOURCE_HINTS: readonly SourceHint[] = [
  { scheme: 'rtsp', prefix: 'rtsp://', example: 'rtsp://user:password@192.168.1.20:554/stream1' },
  { scheme: 'rtsps', prefix: 'rtsps://', example: 'rtsps://192.168.1.20:322/stream1' },
  { scheme: 'http', prefix: 'http://', example: 'http://192.168.1.20/mjpeg' },
  { scheme: 'https', prefix: 'https://', example: 'https://example.com/live/index.m3u8' },
  { scheme: 'onvif', prefix: 'onvif://', example: 'onvif://user:password@192.168.1.20:80' },
  { scheme: 'rtmp', prefix: 'rtmp://', example: 'rtmp://192.168.1.20/live/cam' },
  { scheme: 'ffmpeg', prefix: 'ffmpeg:', example: 'ffmpeg:rtsp://192.168.1.20/stream1#video=h264' },
  { scheme: 'webrtc', prefix: 'webrtc:', example: 'webrtc:http://192.168.1.20:1984/api/webrtc?src=cam' },
  { scheme: 'tcp', prefix: 'tcp://', example: 'tcp://192.168.1.20:8000' },
  // A stream of a remote relay listed in Settings → Remote relays (the config's `relays:`), by its name there.
  { scheme: 'relay', prefix: 'relay://', example: 'relay://north/front_door', shape: 'relay://<relay>/<stream>' },
];

/** The form's one-line hint: the suggested schemes, then where commands may be given instead. */
export function sourceHintText(hints: readonly SourceHint[] = SOURCE_HINTS): string {
  const commands = CODE_RUNNING_SCHEMES.map((scheme) => `${scheme}:`).join(', ');
  return `${hints.map((hint) => hint.shape ?? hint.prefix).join(', ')}, … Commands (${commands}) are accepted only in the config file.`;
}
