import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, waitForMedia, type RelayUnderTest } from '../../test/relay-test-kit';
import { decodeOrderProblems, publishWithBFrames, readVideo } from '../../media/containers/mpegts-mux/test-media';

describe('HLS of a source with B-frames', () => {
  let relay: RelayUnderTest;
  let camera: ChildProcess;

  beforeAll(async () => {
    relay = await startRelay('  bcam:\n');
    camera = publishWithBFrames(relay.rtspUrl('bcam'));
    await waitForMedia(relay, 'bcam', 20_000);
  }, 30_000);

  afterAll(async () => {
    camera?.kill('SIGKILL');
    await relay?.stop();
  });

  it.each([
    ['MPEG-TS', ''],
    ['fMP4', '&mp4'],
  ])(
    '%s segments decode without an error, at the source rate, frames in presentation order, decode times rising',
    async (_, filter) => {
      const video = await readVideo(`${relay.api}/api/stream.m3u8?src=bcam${filter}`, 4);
      expect(video.errors).toBe('');
      // 4 s at 25 fps (the first segment starts at the cached keyframe, so about 100 frames).
      expect(video.decoded).toBeGreaterThanOrEqual(90);
      expect(video.decoded).toBeLessThanOrEqual(105);
      expect(decodeOrderProblems(video, 3600)).toEqual([]);
    },
    60_000,
  );
});
