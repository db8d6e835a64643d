import { useEffect, useRef, useState } from 'react';
import { ADAPTERS } from './adapters';
import { backoffMs } from './backoff';
import { chooseMode, type Capabilities } from './choose-mode';
import { failureOwner } from './failure-owner';
import { countFrames, type FrameCounter } from './frame-counter';
import type { PlayerAdapter, PlayerFailure, PlayerMode, PlayerState } from './player-types';
import { observeFrames, stallVerdict, startProgress } from './stall-watch';

export interface PlayerOptions {
  base: string | undefined;
  stream: string;
  /** False while the tile is hidden or scrolled away: nothing plays, nothing is downloaded. */
  active: boolean;
  forced?: PlayerMode;
  capabilities: Capabilities;
  videoCodecs: readonly string[];
  video: HTMLVideoElement | null;
  image: HTMLImageElement | null;
}

export interface PlaybackStats {
  width?: number;
  height?: number;
  fps?: number;
  /** Bits per second over the last sample. */
  bitrate?: number;
}

const FIRST_PICTURE_MS = 12_000;
/** How often the picture is checked for new frames: a stall shows within a second. */
const CHECK_MS = 250;
const STATS_MS = 1_000;

/**
 * Plays a stream in the first mode that works: each failure of the mode's own before the first
 * picture moves on to the next mode (saying why); a failure the relay blames on the source
 * (camera refused, login refused, no such stream) is shown at once and the same mode retries
 * with back-off; a failure after the first picture, or pictures that stop coming for 2 s,
 * reconnects the same mode with back-off; when every mode failed the tile waits (back-off) and
 * starts the round again.
 */
export function usePlayer(options: PlayerOptions): { state: PlayerState; stats: PlaybackStats } {
  const [state, setState] = useState<PlayerState>({ status: 'idle' });
  const [stats, setStats] = useState<PlaybackStats>({});
  const codecs = useRef(options.videoCodecs);
  codecs.current = options.videoCodecs;
  const { base, stream, active, forced, capabilities, video, image } = options;

  useEffect(() => {
    if (!active || !base || !video || !image) {
      setState({ status: 'idle' });
      return;
    }
    let failed: Array<{ mode: PlayerMode; reason: PlayerFailure['reason'] }> = [];
    let attempt = 0;
    let adapter: PlayerAdapter | undefined;
    let timers: ReturnType<typeof setTimeout>[] = [];
    let statsTimer: ReturnType<typeof setInterval> | undefined;
    let lastFailure: PlayerFailure | undefined;
    let closed = false;

    let frameCounter: FrameCounter | undefined;
    const clearTimers = () => {
      timers.forEach(clearTimeout);
      timers = [];
      clearInterval(statsTimer);
      frameCounter?.stop();
      frameCounter = undefined;
    };
    const later = (ms: number, run: () => void) => timers.push(setTimeout(run, ms));

    /** `retry`: the same mode again after the source failed; the tile keeps saying why meanwhile. */
    const begin = (
      after?: { mode: PlayerMode; failure: PlayerFailure },
      retry?: { mode: PlayerMode; failure: PlayerFailure; cause: string; inMs: number },
    ) => {
      clearTimers();
      const decision = retry ? { mode: retry.mode } : chooseMode({ capabilities, videoCodecs: codecs.current, forced, failed });
      if (!decision.mode) {
        const inMs = backoffMs(attempt++);
        setState({
          status: 'error',
          failure: lastFailure ?? { reason: 'unsupported', detail: 'why' in decision ? decision.why : 'no mode left' },
          inMs,
        });
        later(inMs, () => {
          failed = [];
          begin();
        });
        return;
      }
      const mode = decision.mode;
      let live = false;
      let settled = false;
      setState(retry ? { status: 'unavailable', ...retry, trying: true } : { status: 'connecting', mode, ...(after ? { after } : {}) });

      const onFailure = (failure: PlayerFailure) => {
        if (settled || closed) return;
        settled = true;
        adapter?.stop();
        adapter = undefined;
        lastFailure = failure;
        clearTimers();
        // Size, frame rate and bitrate belong to a picture that is gone.
        if (live) setStats({});
        const blame = failureOwner(failure);
        if (blame.owner === 'source') {
          // Every mode would get the same answer: say it now, and ask again later in this mode.
          const inMs = backoffMs(attempt++);
          const next = { mode, failure, cause: blame.cause, inMs };
          setState({ status: 'unavailable', ...next, trying: false });
          later(inMs, () => begin(after, next));
        } else if (live) {
          const inMs = backoffMs(attempt++);
          setState({ status: 'reconnecting', mode, failure, inMs });
          later(inMs, () => begin());
        } else {
          failed.push({ mode, reason: failure.reason });
          begin({ mode, failure });
        }
      };

      later(FIRST_PICTURE_MS, () => onFailure({ reason: 'timeout', detail: `no picture within ${FIRST_PICTURE_MS / 1000} s` }));
      adapter = ADAPTERS[mode](
        { base, stream, video, image },
        {
          onLive: () => {
            if (settled || closed) return;
            live = true;
            attempt = 0;
            failed = [];
            clearTimers();
            setState({ status: 'live', mode, ...(after ? { after } : {}) });
            watch(mode, after, () => adapter, onFailure);
          },
          onFailure,
        },
      );
    };

    // Checks the picture four times a second (a stall shows at once) and samples the caption
    // figures once a second.
    const watch = (
      mode: PlayerMode,
      after: { mode: PlayerMode; failure: PlayerFailure } | undefined,
      current: () => PlayerAdapter | undefined,
      onFailure: (failure: PlayerFailure) => void,
    ) => {
      const counter = countFrames(mode, video, current);
      frameCounter = counter;
      let progress = startProgress(counter.frames(), performance.now());
      let shown: 'moving' | 'stalled' = 'moving';
      let last = { at: performance.now(), bytes: current()?.bytes() ?? 0, frames: counter.frames() };
      statsTimer = setInterval(() => {
        const now = performance.now();
        const frames = counter.frames();
        progress = observeFrames(progress, frames, now);
        const verdict = stallVerdict(progress, now);
        if (verdict === 'lost')
          return onFailure({ reason: 'stalled', detail: `no new picture for ${Math.round((now - progress.lastFrameAt) / 1000)} s` });
        if (verdict !== shown) {
          shown = verdict;
          setState({ status: verdict === 'stalled' ? 'stalled' : 'live', mode, ...(after ? { after } : {}) });
        }
        if (now - last.at < STATS_MS) return;
        const bytes = current()?.bytes() ?? 0;
        const seconds = (now - last.at) / 1000;
        setStats({
          width: mode === 'mjpeg' ? image.naturalWidth : video.videoWidth,
          height: mode === 'mjpeg' ? image.naturalHeight : video.videoHeight,
          fps: Math.round((frames - last.frames) / seconds),
          bitrate: current()?.bitrate?.() ?? Math.round(((bytes - last.bytes) * 8) / seconds),
        });
        last = { at: now, bytes, frames };
      }, CHECK_MS);
    };

    begin();
    return () => {
      closed = true;
      clearTimers();
      adapter?.stop();
      setStats({});
    };
  }, [active, base, stream, forced, capabilities, video, image]);

  return { state, stats };
}
