import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { KodoClient } from '../storage/client/kodo-client';
import { recordedClip } from './clip-maker';
import { fragmentSeconds, segmentParts } from './fmp4-parts';
import type { SegmentCatalog } from './segment-catalog';
import { segmentKey } from './segment-keys';
import { createRunWriter, type WriterEvent } from './segment-writer';
import { openSpool, type OpenSpoolFile, type Spool } from './spool';
import { waitUntil } from '../test-support/time';
import { cameraFrames } from './test-support/camera-frames';

// A clip of a recorded stream from what is on this machine: finished segments in the spool and
// the one being written (its whole fragments), joined into one MP4 on one timeline.

const T0 = Date.UTC(2026, 10, 27, 8, 0, 0);
/** Nothing is in the bucket yet: every segment is still spooled. */
const emptyBucket: SegmentCatalog = { list: async () => [], remember: () => undefined };

let dir: string | undefined;
afterEach(async () => dir && rm(dir, { recursive: true, force: true }));

/** 11 s of a camera recorded in 4 s segments: two finished in the spool, the third still being written. */
async function recording(): Promise<{ spool: Spool; nowMs: number; gopSeconds: number }> {
  dir = await mkdtemp(join(tmpdir(), 'clip-maker-'));
  const spool = await openSpool(join(dir, 'spool'));
  const { tracks, frames } = cameraFrames(11, { at: T0 });
  const writer = createRunWriter({ tracks, segmentMs: 4_000 });
  let file: OpenSpoolFile | undefined;
  let written = 0;
  const finishing: Promise<unknown>[] = [];
  const apply = (events: readonly WriterEvent[]) => {
    for (const event of events) {
      if (event.kind === 'open') {
        file = spool.begin('cam');
        written = 0;
      } else if (event.kind === 'data') {
        file!.write(event.parts);
        for (const part of event.parts) written += part.length;
      } else {
        const { segment } = event;
        const target = { stream: 'cam', account: 'local', bucket: 'rec', key: segmentKey('', segment.startMs), metadata: {}, ...segment };
        finishing.push(file!.finish(target));
      }
    }
  };
  for (const f of frames) apply(writer.push(f.track, f.frame, f.arrivalMs));
  await Promise.all(finishing);
  // The open segment's bytes so far reach the disk (the spool writes them in order, a moment later).
  const [part] = spool.writing('cam');
  await waitUntil(async () => (await stat(part!)).size === written, { what: 'the open segment on disk' });
  const keyframes = frames.filter((f) => f.track === 0 && f.frame.keyframe).map((f) => f.frame.timestamp);
  return { spool, nowMs: frames.at(-1)!.arrivalMs, gopSeconds: (keyframes[1]! - keyframes[0]!) / 90_000 };
}

const place = { client: {} as KodoClient, account: 'local', bucket: 'rec', prefix: '' };

describe('recordedClip', () => {
  it('joins the spooled segments and the one being written, cut at the keyframe before the start, on one timeline', async () => {
    const { spool, nowMs, gopSeconds } = await recording();
    expect(spool.entries('cam')).toHaveLength(2);
    expect(spool.writing('cam')).toHaveLength(1);

    const clip = (await recordedClip({ stream: 'cam', place, catalog: emptyBucket, spool, seconds: 6, nowMs }))!;
    const parts = segmentParts(clip.bytes);
    expect(parts.fragments[0]!.keyframe).toBe(true);
    const times = parts.fragments.map((f) => fragmentSeconds(parts, f));
    expect(times[0]).toBeCloseTo(0, 1);
    for (let i = 1; i < times.length; i++) expect(times[i]!, `fragment ${i}`).toBeGreaterThan(times[i - 1]!);
    // At least the 6 s asked (less the last fragment, still in memory), at most a GOP more.
    expect(clip.seconds).toBeGreaterThanOrEqual(6 - 1);
    expect(clip.seconds).toBeLessThanOrEqual(6 + gopSeconds + 0.1);
    expect(times.at(-1)!).toBeGreaterThan(clip.seconds - 1.1);
  });

  it('takes everything there is when less was recorded than asked', async () => {
    const { spool, nowMs } = await recording();
    const clip = (await recordedClip({ stream: 'cam', place, catalog: emptyBucket, spool, seconds: 600, nowMs }))!;
    // All 11 s but the last fragment, still in the writer's memory (up to a second).
    expect(clip.seconds).toBeGreaterThan(11 - 1 - 0.1);
    expect(clip.seconds).toBeLessThan(11.1);
  });

  it('has nothing when nothing of the range was recorded', async () => {
    const { spool, nowMs } = await recording();
    expect(await recordedClip({ stream: 'other', place, catalog: emptyBucket, spool, seconds: 10, nowMs })).toBeUndefined();
    // Segments an hour old do not reach into the last 10 s.
    const old = { ...spool, writing: () => [] };
    expect(
      await recordedClip({ stream: 'cam', place, catalog: emptyBucket, spool: old, seconds: 10, nowMs: nowMs + 3_600_000 }),
    ).toBeUndefined();
  });
});
