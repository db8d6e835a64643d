import type { PlayerAdapter, PlayerMode } from './player-types';

/** Frames shown so far, read as often as the caller likes; stop() lets go of the element. */
export interface FrameCounter {
  frames(): number;
  stop(): void;
}

/**
 * Counts pictures actually shown. A video counts with requestVideoFrameCallback where the browser
 * has it: `currentTime` of a WebRTC stream keeps running while no frame arrives (the "LIVE ·
 * 0 fps" of a dropped viewer), and the decoder's counter is not the screen. MJPEG counts the
 * adapter's pictures.
 */
export function countFrames(mode: PlayerMode, video: HTMLVideoElement, adapter: () => PlayerAdapter | undefined): FrameCounter {
  if (mode === 'mjpeg') return { frames: () => adapter()?.pictures?.() ?? 0, stop: () => undefined };
  if (typeof video.requestVideoFrameCallback !== 'function') {
    return { frames: () => video.getVideoPlaybackQuality?.().totalVideoFrames ?? 0, stop: () => undefined };
  }
  let frames = 0;
  let first: number | undefined;
  let handle = 0;
  // presentedFrames also counts frames shown between two callbacks (a busy page renders less often).
  const onFrame = (_now: number, metadata: VideoFrameCallbackMetadata) => {
    first ??= metadata.presentedFrames - 1;
    frames = Math.max(frames + 1, metadata.presentedFrames - first);
    handle = video.requestVideoFrameCallback(onFrame);
  };
  handle = video.requestVideoFrameCallback(onFrame);
  return {
    frames: () => frames,
    stop: () => video.cancelVideoFrameCallback(handle),
  };
}
