import { PLAYER_MODES, type FailureReason, type PlayerMode } from './player-types';

/** What this browser can play, read once from its APIs (see browser-capabilities.ts). */
export interface Capabilities {
  webrtc: boolean;
  /** Media Source Extensions (hls.js needs them too). */
  mse: boolean;
  /** MSE can take H.265 in MP4 (hvc1). */
  mseH265: boolean;
  /** WebRTC receivers can decode H.265. */
  webrtcH265: boolean;
  /** The video element plays HLS by itself (Safari). */
  nativeHls: boolean;
}

export interface ModeInput {
  capabilities: Capabilities;
  /** Video codec names of the stream from the relay (h264, h265, jpeg, ...); empty when not known yet. */
  videoCodecs: readonly string[];
  /** A mode the user picked for this tile; undefined: automatic. */
  forced?: PlayerMode;
  /** Modes that failed in this round, with why. */
  failed: ReadonlyArray<{ mode: PlayerMode; reason: FailureReason }>;
}

export type ModeDecision = { mode: PlayerMode; skipped: Array<{ mode: PlayerMode; why: string }> } | { mode: undefined; why: string };

/** Why a mode cannot play this stream in this browser; undefined when it can. */
function unfit(mode: PlayerMode, { capabilities: caps, videoCodecs }: ModeInput): string | undefined {
  const jpegOnly = videoCodecs.length > 0 && videoCodecs.every((c) => c === 'jpeg');
  const h265 = videoCodecs.includes('h265');
  switch (mode) {
    case 'webrtc':
      if (!caps.webrtc) return 'this browser has no WebRTC';
      if (jpegOnly) return 'WebRTC does not carry JPEG video';
      if (h265 && !videoCodecs.includes('h264') && !caps.webrtcH265) return 'this browser cannot decode H.265 over WebRTC';
      return undefined;
    case 'mse':
      if (!caps.mse) return 'this browser has no Media Source Extensions';
      if (jpegOnly) return 'MP4 in the browser does not carry JPEG video';
      if (h265 && !videoCodecs.includes('h264') && !caps.mseH265) return 'this browser cannot decode H.265 in MP4';
      return undefined;
    case 'hls':
      if (!caps.mse && !caps.nativeHls) return 'this browser plays HLS neither natively nor through MSE';
      if (jpegOnly) return 'HLS does not carry JPEG video';
      if (h265 && !videoCodecs.includes('h264') && !caps.mseH265 && !caps.nativeHls) return 'this browser cannot decode H.265 in HLS';
      return undefined;
    case 'mjpeg':
      return undefined; // the relay transcodes any video to JPEG; an <img> shows it anywhere
  }
}

/**
 * The mode a tile plays in: the first of WebRTC → MSE → HLS → MJPEG that this browser can play
 * for this stream's codecs and that has not failed in this round (go2rtc's player order). MSE
 * comes first where there is no WebRTC simply because WebRTC is skipped. A mode the user forced
 * is the only candidate.
 */
export function chooseMode(input: ModeInput): ModeDecision {
  const candidates = input.forced ? [input.forced] : PLAYER_MODES;
  const skipped: Array<{ mode: PlayerMode; why: string }> = [];
  for (const mode of candidates) {
    const failed = input.failed.find((f) => f.mode === mode);
    if (failed) {
      skipped.push({ mode, why: `failed: ${failed.reason}` });
      continue;
    }
    const why = unfit(mode, input);
    if (why) {
      skipped.push({ mode, why });
      continue;
    }
    return { mode, skipped };
  }
  return { mode: undefined, why: skipped.map((s) => `${s.mode}: ${s.why}`).join('; ') || 'no mode left' };
}
