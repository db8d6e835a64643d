import type { Capabilities } from './choose-mode';

const mseSupports = (codecs: string) => typeof MediaSource !== 'undefined' && MediaSource.isTypeSupported(`video/mp4; codecs="${codecs}"`);

/** What this browser can play, read from its own APIs. */
export function readCapabilities(): Capabilities {
  const webrtc = typeof RTCPeerConnection !== 'undefined';
  const video = document.createElement('video');
  return {
    webrtc,
    mse: typeof MediaSource !== 'undefined',
    mseH265: mseSupports('hvc1.1.6.L153.B0'),
    webrtcH265: webrtc && (RTCRtpReceiver.getCapabilities?.('video')?.codecs ?? []).some((c) => /h265|hevc/i.test(c.mimeType)),
    nativeHls: video.canPlayType('application/vnd.apple.mpegurl') !== '',
  };
}

/** The codecs go2rtc's WebSocket MSE mode is told this browser takes (its player sends the same list). */
export function mseCodecs(): string {
  return ['avc1.640029', 'avc1.64002A', 'avc1.640033', 'hvc1.1.6.L153.B0', 'mp4a.40.2', 'mp4a.40.5', 'flac', 'opus']
    .filter(mseSupports)
    .join(',');
}
