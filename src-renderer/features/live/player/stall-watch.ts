/**
 * Whether pictures still arrive, judged from when the last new frame was shown. A picture that
 * stops says so within a second ("stalled", the frozen frame stays visible) and the tile
 * reconnects a second later ("lost"), instead of showing LIVE over a frozen frame until the
 * browser gives up on the connection (17–27 s for WebRTC). A slow camera (1 fps, a JPEG
 * snapshot source) is not a stalled one: the limits grow with the usual gap between its frames.
 */
export interface FrameProgress {
  frames: number;
  /** When the frame count last grew (ms, performance.now()). */
  lastFrameAt: number;
  /** The usual gap between frames (ms), smoothed; undefined until two frames were seen. */
  gapMs?: number;
  /** When the counter was last read. */
  checkedAt: number;
}

export type StallVerdict = 'moving' | 'stalled' | 'lost';

const STALLED_AFTER_MS = 1_000;
/** From the last frame to giving the connection up: 2 s at any ordinary frame rate. */
const LOST_AFTER_MS = 2_000;
/**
 * A reading this late after the one before means the page itself did not run (a busy machine
 * gave it no CPU): frames could not be shown, and would not be counted, in that time either, so
 * it does not count against the picture. Otherwise a tab starved for 2 s reconnects every tile,
 * which only adds work.
 */
const PAGE_FROZEN_MS = 500;
/** A gap this many times the usual one is a stall even at a low frame rate. */
const GAP_FACTOR = 3;
/**
 * Until a second frame shows the usual gap, a slow camera (one picture every 2 s) must not look
 * stalled: the first limit is longer. A camera slower than one picture per 3 s still does.
 */
const FIRST_GAP_MS = 3_000;

export function startProgress(frames: number, now: number): FrameProgress {
  return { frames, lastFrameAt: now, checkedAt: now };
}

/** The progress after reading the frame counter at `now` (read every few hundred ms). */
export function observeFrames(progress: FrameProgress, frames: number, now: number): FrameProgress {
  const frozenMs = now - progress.checkedAt > PAGE_FROZEN_MS ? now - progress.checkedAt : 0;
  if (frames === progress.frames) return { ...progress, lastFrameAt: progress.lastFrameAt + frozenMs, checkedAt: now };
  if (frames < progress.frames) return { frames, lastFrameAt: now, gapMs: progress.gapMs, checkedAt: now };
  // Several frames since the last look share the time since the last one.
  const gap = (now - progress.lastFrameAt) / (frames - progress.frames);
  const gapMs = progress.gapMs === undefined ? gap : progress.gapMs * 0.8 + gap * 0.2;
  return { frames, lastFrameAt: now, gapMs, checkedAt: now };
}

export function stallVerdict(progress: FrameProgress, now: number): StallVerdict {
  const since = now - progress.lastFrameAt;
  const usual = progress.gapMs === undefined ? FIRST_GAP_MS : progress.gapMs * GAP_FACTOR;
  const stalledAfter = Math.max(STALLED_AFTER_MS, usual);
  if (since > stalledAfter + (LOST_AFTER_MS - STALLED_AFTER_MS)) return 'lost';
  return since > stalledAfter ? 'stalled' : 'moving';
}
