import { useEffect, useRef, useState } from 'react';
import { ADAPTERS } from './adapters';
import { backoffMs } from './backoff';
import { chooseMode, type Capabilities } from './choose-mode';
import type { PlayerAdapter, PlayerFailure, PlayerMode, PlayerState } from './player-types';

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
const STALL_MS = 6_000;

/**
 * Plays a stream in the first mode that works: each failure before the first picture moves on
 * to the next mode (saying why), a failure after it reconnects the same mode with back-off,
 * and when every mode failed the tile waits (back-off) and starts the round again.
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

    const clearTimers = () => {
      timers.forEach(clearTimeout);
      timers = [];
      clearInterval(statsTimer);
    };
    const later = (ms: number, run: () => void) => timers.push(setTimeout(run, ms));

    const begin = (after?: { mode: PlayerMode; failure: PlayerFailure }) => {
      clearTimers();
      const decision = chooseMode({ capabilities, videoCodecs: codecs.current, forced, failed });
      if (!decision.mode) {
        const inMs = backoffMs(attempt++);
        setState({ status: 'error', failure: lastFailure ?? { reason: 'unsupported', detail: decision.why }, inMs });
        later(inMs, () => {
          failed = [];
          begin();
        });
        return;
      }
      const mode = decision.mode;
      let live = false;
      let settled = false;
      setState({ status: 'connecting', mode, ...(after ? { after } : {}) });

      const onFailure = (failure: PlayerFailure) => {
        if (settled || closed) return;
        settled = true;
        adapter?.stop();
        adapter = undefined;
        lastFailure = failure;
        if (live) {
          const inMs = backoffMs(attempt++);
          setState({ status: 'reconnecting', mode, failure, inMs });
          clearTimers();
          later(inMs, () => begin());
        } else {
          failed.push({ mode, reason: failure.reason });
          begin({ mode, failure });
        }
      };

      later(FIRST_PICTURE_MS, () => onFailure({ reason: 'timeout', detail: `no picture within ${FIRST_PICTURE_MS / 1000} s` }));
      adapter = ADAPTERS[mode]({ base, stream, video, image }, {
        onLive: () => {
          if (settled || closed) return;
          live = true;
          attempt = 0;
          failed = [];
          clearTimers();
          setState({ status: 'live', mode, ...(after ? { after } : {}) });
          watch(mode, () => adapter, onFailure);
        },
        onFailure,
      });
    };

    // Samples the picture once a second: caption figures, and a stall is a failure.
    const watch = (mode: PlayerMode, current: () => PlayerAdapter | undefined, onFailure: (failure: PlayerFailure) => void) => {
      let last = { at: performance.now(), bytes: current()?.bytes() ?? 0, frames: frameCount(mode, video, current()), progressAt: performance.now(), time: video.currentTime };
      statsTimer = setInterval(() => {
        const now = performance.now();
        const bytes = current()?.bytes() ?? 0;
        const frames = frameCount(mode, video, current());
        const seconds = (now - last.at) / 1000;
        const moving = mode === 'mjpeg' ? frames > last.frames : video.currentTime !== last.time;
        const progressAt = moving ? now : last.progressAt;
        setStats({
          width: mode === 'mjpeg' ? image.naturalWidth : video.videoWidth,
          height: mode === 'mjpeg' ? image.naturalHeight : video.videoHeight,
          fps: Math.round((frames - last.frames) / seconds),
          bitrate: Math.round(((bytes - last.bytes) * 8) / seconds),
        });
        last = { at: now, bytes, frames, progressAt, time: video.currentTime };
        if (now - progressAt > STALL_MS) onFailure({ reason: 'stalled', detail: `no new picture for ${STALL_MS / 1000} s` });
      }, 1_000);
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

function frameCount(mode: PlayerMode, video: HTMLVideoElement, adapter: PlayerAdapter | undefined): number {
  if (mode === 'mjpeg') return adapter?.pictures?.() ?? 0;
  return video.getVideoPlaybackQuality?.().totalVideoFrames ?? 0;
}
