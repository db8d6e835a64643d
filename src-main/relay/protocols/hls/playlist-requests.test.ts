import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HttpError } from '@main/platform/http/http-error';
import { createPlaylistRequests } from './playlist-requests';
import { createSegmenter, type SegmentUnit } from './segmenter';
import { createWaiters } from './session-waiters';

const FRAME = 3600; // 25 fps on the 90 kHz time line

/** A session's playlist timing around a real segmenter: frames go in by `feed`, each waking the requests. */
function session() {
  const segmenter = createSegmenter<SegmentUnit>({
    minSeconds: 0.9,
    maxSeconds: 10,
    startSegments: 3,
    keep: 20,
    partSeconds: 0.3,
    build: () => new Uint8Array(1),
  });
  const waiters = createWaiters(() => false);
  const due = createPlaylistRequests({
    id: 's',
    segmenter,
    partSeconds: 0.3,
    waitMs: 8000,
    waitUntil: waiters.waitUntil,
    isClosed: () => false,
  });
  let frame = 0;
  /** `count` more frames of 25 fps video with a keyframe a second. */
  const feed = (count: number) => {
    for (const end = frame + count; frame < end; frame++) segmenter.push({ time: frame * FRAME, cut: frame % 25 === 0 });
    waiters.notify();
  };
  /** Whether a request is answered (true), refused (its status) or still waiting (undefined) after the microtasks run. */
  const settled = async (request: Promise<void>) => {
    let state: boolean | number | undefined;
    request.then(() => (state = true)).catch((error: HttpError) => (state = error.status));
    await vi.advanceTimersByTimeAsync(0);
    return () => state;
  };
  return { segmenter, due, feed, settled };
}

describe('when a media playlist is answered', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('answers the first playlist once the first GOP is in as three segments', async () => {
    const { segmenter, due, feed, settled } = session();
    feed(10);
    const first = await settled(due(undefined));
    expect(first()).toBeUndefined();
    feed(16);
    await vi.advanceTimersByTimeAsync(0);
    expect(first()).toBe(true);
    expect(segmenter.segments).toHaveLength(3);
  });

  it('holds a plain reload that would list nothing new until the next segment is out, at most three target durations', async () => {
    const { due, feed, settled } = session();
    feed(26);
    await due(undefined);
    // Nothing new since: Chromium's player would ask again at once, over and over.
    const held = await settled(due(undefined));
    feed(24);
    await vi.advanceTimersByTimeAsync(0);
    expect(held()).toBeUndefined();
    feed(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(held()).toBe(true);
    // A source that stopped: the playlist as it is after 3 s.
    const stalled = await settled(due(undefined));
    await vi.advanceTimersByTimeAsync(2999);
    expect(stalled()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(stalled()).toBe(true);
  });

  it('answers a blocking reload once its part is out, refuses one too far ahead at once, and says 503 after three target durations', async () => {
    const { segmenter, due, feed, settled } = session();
    feed(26);
    await due(undefined);
    const next = segmenter.pending;
    const part = await settled(due({ msn: next, part: 1 }));
    feed(8);
    await vi.advanceTimersByTimeAsync(0);
    expect([part(), segmenter.pendingParts.length]).toEqual([undefined, 1]);
    feed(7);
    await vi.advanceTimersByTimeAsync(0);
    expect(part()).toBe(true);
    expect(await (await settled(due({ msn: next + 2 })))()).toBe(400);
    const late = await settled(due({ msn: next + 1 }));
    await vi.advanceTimersByTimeAsync(3000);
    expect(late()).toBe(503);
  });
});
