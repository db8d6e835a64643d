import { describe, expect, it } from 'vitest';
import { observeFrames, stallVerdict, startProgress, type FrameProgress } from './stall-watch';

/** Frames at `fps` from t=0 for `seconds`, read every 250 ms as the player reads them. */
function play(fps: number, seconds: number, from: FrameProgress = startProgress(0, 0)): FrameProgress {
  let progress = from;
  for (let t = from.lastFrameAt + 250; t <= from.lastFrameAt + seconds * 1000; t += 250) {
    progress = observeFrames(progress, from.frames + Math.floor(((t - from.lastFrameAt) / 1000) * fps), t);
  }
  return progress;
}

describe('stall watch', () => {
  it.each<[string, number, number, 'moving' | 'stalled' | 'lost']>([
    // [case, frame rate, ms since the last frame, verdict]
    ['25 fps, frames arriving', 25, 200, 'moving'],
    ['25 fps, 1 s without a frame: stalled', 25, 1_100, 'stalled'],
    ['25 fps, 2 s without a frame: lost', 25, 2_100, 'lost'],
    ['5 fps, a usual gap', 5, 900, 'moving'],
    ['1 fps camera between two frames is not stalled', 1, 1_900, 'moving'],
    ['1 fps camera, 3.5 s without a frame: stalled', 1, 3_500, 'stalled'],
    ['1 fps camera, 4.5 s without a frame: lost', 1, 4_500, 'lost'],
  ])('%s', (_name, fps, silentMs, verdict) => {
    const progress = play(fps, 10);
    expect(stallVerdict(progress, progress.lastFrameAt + silentMs)).toBe(verdict);
  });

  it('before a second frame shows the usual gap, a slow camera has 3 s', () => {
    const progress = startProgress(1, 0);
    expect(stallVerdict(progress, 2_900)).toBe('moving');
    expect(stallVerdict(progress, 3_500)).toBe('stalled');
    expect(stallVerdict(progress, 4_100)).toBe('lost');
  });

  it('a 0.5 fps camera plays on without stalls', () => {
    let progress = startProgress(1, 0);
    for (let t = 250; t <= 30_000; t += 250) {
      progress = observeFrames(progress, 1 + Math.floor(t / 2_000), t);
      expect(stallVerdict(progress, t)).toBe('moving');
    }
  });

  it('frames coming back end the stall', () => {
    const progress = play(25, 5);
    const stalled = progress.lastFrameAt + 1_500;
    expect(stallVerdict(progress, stalled)).toBe('stalled');
    const resumed = observeFrames(progress, progress.frames + 1, stalled + 100);
    expect(stallVerdict(resumed, stalled + 200)).toBe('moving');
  });

  it('a counter that starts again (new source on the element) counts as a frame', () => {
    const progress = play(25, 2);
    const again = observeFrames(progress, 0, progress.lastFrameAt + 1_500);
    expect(again.lastFrameAt).toBe(progress.lastFrameAt + 1_500);
    expect(again.gapMs).toBe(progress.gapMs);
  });

  it('time the page itself did not run does not count as a stall', () => {
    const progress = play(25, 5);
    // The next reading comes 2.5 s late and the counter has not moved yet (frames are counted
    // when the page renders, after this timer).
    const late = observeFrames(progress, progress.frames, progress.checkedAt + 2_500);
    expect(stallVerdict(late, late.checkedAt)).toBe('moving');
    // Still no frame once the page runs again: a stall, judged from then on.
    let next = late;
    for (let t = late.checkedAt + 250; t <= late.checkedAt + 1_250; t += 250) next = observeFrames(next, next.frames, t);
    expect(stallVerdict(next, next.checkedAt)).toBe('stalled');
  });
});
