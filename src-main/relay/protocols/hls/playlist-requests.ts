import { HttpError } from '@main/platform/http/http-error';
import { reloadState, type OutNow, type PlaylistWait } from './blocking-reload';
import type { Segmenter, SegmentUnit } from './segmenter';

export interface PlaylistRequestParts {
  id: string;
  segmenter: Segmenter<SegmentUnit>;
  /** PART-TARGET, seconds; undefined without parts. */
  partSeconds?: number;
  /** How long the first playlist waits for its first segments. */
  waitMs: number;
  waitUntil(ready: () => boolean, ms: number): Promise<boolean>;
  isClosed(): boolean;
}

/**
 * When a session's media playlist is answered:
 * - the first, once the first segments are out (the session's first GOP: the stream's cached
 *   one and the live frames up to the next keyframe);
 * - a blocking reload (`_HLS_msn`, `_HLS_part`), once what it names is out (rfc8216bis 6.2.5.2),
 *   refused at once when it asks too far ahead, and a 503 after three target durations;
 * - a plain reload that would list no segment this player's last plain reload did not already
 *   list, once the next segment is out (at most three target durations, then as it is). Such
 *   reloads come from players of whole segments: Chromium's own HLS player asks again at once
 *   while its segment queue is empty, and when playback starts after the segments it fetched
 *   while paused it needs a segment it has not seen in its next reload, or it gives up.
 */
export function createPlaylistRequests(parts: PlaylistRequestParts): (wait: PlaylistWait | undefined) => Promise<void> {
  const { id, segmenter } = parts;
  /** The segment being filled when the last plain reload was answered. */
  let lastPlain: number | undefined;
  const outNow = (): OutNow => ({
    pending: segmenter.pending,
    pendingParts: segmenter.pendingParts.length,
    partsOf: (n) => segmenter.get(n)?.parts.length,
    partTarget: parts.partSeconds,
  });
  const limitMs = () => 3 * segmenter.targetDuration * 1000;

  async function block(wait: PlaylistWait): Promise<void> {
    const first = reloadState(outNow(), wait);
    if ('refused' in first) throw new HttpError(400, first.refused);
    const ready = () => {
      const state = reloadState(outNow(), wait);
      return 'ready' in state && state.ready;
    };
    if ((await parts.waitUntil(ready, limitMs())) || parts.isClosed()) return;
    const what = `segment ${wait.msn}${wait.part === undefined ? '' : ` part ${wait.part}`}`;
    throw new HttpError(
      503,
      `${what} of HLS session ${id} is not out after ${3 * segmenter.targetDuration} s: the source sent nothing new`,
    );
  }

  return async (wait) => {
    // A GOP longer than the wait (or no keyframe): what is there, under a target fixed now.
    if (!(await parts.waitUntil(() => segmenter.started, parts.waitMs))) segmenter.startNow();
    if (wait) return block(wait);
    const seen = lastPlain;
    if (seen !== undefined && segmenter.pending <= seen) await parts.waitUntil(() => segmenter.pending > seen, limitMs());
    lastPlain = Math.max(lastPlain ?? 0, segmenter.pending);
  };
}
