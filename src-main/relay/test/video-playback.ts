import { waitUntil } from '../../test-support/time';

/** What a page's first <video> shows: its clock, picture size, sound and error. */
export interface VideoState {
  time: number;
  /** `WIDTHxHEIGHT` of the decoded picture, `0x0` before the first frame. */
  size: string;
  /** Chromium: bytes of audio decoded so far; Firefox: 1 when the media has a sound track (it counts nothing). */
  audio: number;
  error: string | null;
}

/**
 * Runs in the page (serialized: it may use nothing from outside): the state of its first
 * <video>, the one a page made or the one a browser's media document wraps a URL in; null
 * while there is none.
 */
export function readVideo(): VideoState | null {
  const video = document.querySelector('video') as
    (HTMLVideoElement & { webkitAudioDecodedByteCount?: number; mozHasAudio?: boolean }) | null;
  if (!video) return null;
  const audio = video.webkitAudioDecodedByteCount ?? (video.mozHasAudio ? 1 : 0);
  return {
    time: video.currentTime,
    size: `${video.videoWidth}x${video.videoHeight}`,
    audio,
    error: video.error ? `${video.error.code} ${video.error.message}` : null,
  };
}

/**
 * Waits until the video `read` reports has played past `seconds`, failing at once with its media
 * error. A browser starts a live MP4 once it has buffered some of it: Chromium takes a few
 * seconds at a test pattern's low bitrate, hence the generous deadline.
 */
export async function playedPast(read: () => Promise<VideoState | null>, seconds: number, timeoutMs = 40_000): Promise<VideoState> {
  let last: VideoState | null = null;
  const played = async () => {
    last = await read();
    if (last?.error) throw new Error(`the video failed: ${last.error}`);
    return last !== null && last.time > seconds ? last : undefined;
  };
  return waitUntil(played, { timeout: timeoutMs, interval: 200, what: `the video to play past ${seconds} s` }).catch((error: Error) => {
    throw new Error(`${error.message}; last state: ${JSON.stringify(last)}`);
  });
}
