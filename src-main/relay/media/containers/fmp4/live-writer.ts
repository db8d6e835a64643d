import type { MediaFrame } from '@main/relay/core/media';
import { createFmp4Muxer, type Fmp4Muxer, type Fmp4Sample, type Fmp4TrackInput } from './muxer';

export interface Fmp4LiveWriterOptions {
  tracks: ReadonlyArray<Fmp4TrackInput>;
  /** Seconds of media after which the writer is `done` (`stream.mp4?duration=`). */
  duration?: number;
  /** Audio-only output: the audio one fragment gathers, in seconds (default 0.1). */
  audioBatch?: number;
  /** Wall clock in ms (tests pass their own). */
  now?: () => number;
}

export interface Fmp4LiveWriter {
  readonly muxer: Fmp4Muxer;
  /**
   * One frame in; bytes to send out: the init segment first, then fragments (often nothing yet).
   * `at` is when the frame arrived (ms of `now`), for frames handed over late.
   */
  push(track: number, frame: MediaFrame, at?: number): Uint8Array[];
  /** The audio still gathered, as a last fragment (when the output ends). */
  flush(): Uint8Array[];
  /** The client fell behind: drop everything up to the next video keyframe. */
  resync(): void;
  /** The init segment went out. */
  readonly started: boolean;
  /** `duration` of media is written; nothing more comes out. */
  readonly done: boolean;
  /** Seconds of media written so far. */
  readonly seconds: number;
}

/** With video, audio rides along with the next video frame, unless video stalls this long. */
const AUDIO_WAIT_FOR_VIDEO = 0.5;

/**
 * Fragmented MP4 for a live viewer, as low in latency as the format allows: a fragment per
 * video frame as soon as it arrives (audio frames gathered since ride along in the same moof),
 * starting at a video keyframe (with audio only, at once). The first video track leads the
 * timeline from 0; every other track is placed on it when its first frame arrives, by wall
 * clock against the leader's newest frame. RTP timestamps of different tracks share no
 * origin, and the leader starts with the cached GOP, up to seconds older than live audio.
 */
export function createFmp4LiveWriter(options: Fmp4LiveWriterOptions): Fmp4LiveWriter {
  const muxer = createFmp4Muxer(options.tracks);
  const now = options.now ?? Date.now;
  const tracks = options.tracks;
  const lead = Math.max(
    0,
    tracks.findIndex((t) => t.kind === 'video'),
  );
  const hasVideo = tracks.some((t) => t.kind === 'video');
  const audioBatch = hasVideo ? AUDIO_WAIT_FOR_VIDEO : (options.audioBatch ?? 0.1);
  let started = false;
  let done = false;
  let resyncing = false;
  let seconds = 0;
  let startSeconds = 0;
  let leadLatest: { seconds: number; at: number } | undefined;
  let pending: Fmp4Sample[] = [];
  /** Video tracks other than the leader wait for their own keyframe. */
  const begun = tracks.map(() => false);

  function emit(samples: Fmp4Sample[]): Uint8Array[] {
    if (samples.length === 0) return [];
    for (const s of samples) seconds = Math.max(seconds, muxer.seconds(s.track, s.frame.timestamp));
    return [muxer.fragment(samples)];
  }

  function flushPending(): Uint8Array[] {
    const out = emit(pending);
    pending = [];
    return out;
  }

  function start(track: number, frame: MediaFrame): Uint8Array[] {
    if (tracks[track]!.kind === 'video' && frame.keyframe) muxer.learn(track, frame);
    if (track !== lead || (tracks[lead]!.kind === 'video' && !frame.keyframe)) return [];
    const init = muxer.init();
    if (!init) return []; // parameter sets still unknown: wait for a keyframe that has them
    started = true;
    muxer.anchor(lead, frame.timestamp, 0);
    // 0, or later by the decode delay of B-frames: `duration` counts from here.
    startSeconds = muxer.seconds(lead, frame.timestamp);
    begun[lead] = true;
    return [init];
  }

  function place(track: number, frame: MediaFrame, at: number): boolean {
    if (begun[track]) return true;
    if (tracks[track]!.kind === 'video' && !frame.keyframe) return false;
    const leaderNow = leadLatest ? leadLatest.seconds + (at - leadLatest.at) / 1000 : 0;
    muxer.anchor(track, frame.timestamp, leaderNow);
    begun[track] = true;
    return true;
  }

  return {
    muxer,
    get started() {
      return started;
    },
    get done() {
      return done;
    },
    get seconds() {
      return seconds;
    },
    push(track, frame, at = now()) {
      if (done) return [];
      const out = started ? [] : start(track, frame);
      if (!started) return out;
      const video = tracks[track]!.kind === 'video';
      if (resyncing) {
        if (track !== lead || !frame.keyframe) return out;
        resyncing = false;
      }
      if (!place(track, frame, at)) return out;
      const time = muxer.seconds(track, frame.timestamp);
      // With B-frames the newest frame in decode order is not always the latest in time (a jump
      // back of more than a second is the source's clock starting over, though).
      if (track === lead && (!leadLatest || time >= leadLatest.seconds || time < leadLatest.seconds - 1))
        leadLatest = { seconds: time, at };
      if (options.duration !== undefined && time - startSeconds >= options.duration) {
        // The leader decides when the file is long enough; other tracks just stop there.
        if (track !== lead) return out;
        done = true;
        pending = pending.filter((s) => muxer.seconds(s.track, s.frame.timestamp) - startSeconds < options.duration!);
        return [...out, ...flushPending()];
      }
      pending.push({ track, frame });
      if (video) return [...out, ...flushPending()];
      const first = pending[0]!;
      if (time - muxer.seconds(first.track, first.frame.timestamp) >= audioBatch) return [...out, ...flushPending()];
      return out;
    },
    flush: flushPending,
    resync() {
      resyncing = hasVideo;
      pending = [];
    },
  };
}
