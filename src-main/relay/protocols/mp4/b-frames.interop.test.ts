import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, waitForMedia, type RelayUnderTest } from '../../test/relay-test-kit';
import { decodeOrderProblems, publishWithBFrames, readVideo } from '../../media/containers/mpegts-mux/test-media';

const dir = mkdtempSync(join(tmpdir(), 'mp4-bframes-'));

describe('MP4 outputs of a source with B-frames', () => {
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
    rmSync(dir, { recursive: true, force: true });
  });

  it('stream.mp4 decodes without an error, every frame in presentation order, decode times rising', async () => {
    const video = await readVideo(`${relay.api}/api/stream.mp4?src=bcam&duration=3`);
    expect(video.errors).toBe('');
    // 3 s at 25 fps, less the two frames of decode delay the file starts with.
    expect(video.decoded).toBeGreaterThanOrEqual(70);
    expect(video.decoded).toBeLessThanOrEqual(76);
    expect(decodeOrderProblems(video, 3600)).toEqual([]);
  }, 30_000);

  it('frame.mp4 is the keyframe alone, which decodes', async () => {
    const response = await fetch(`${relay.api}/api/frame.mp4?src=bcam`);
    expect(response.status).toBe(200);
    const file = join(dir, 'frame.mp4');
    writeFileSync(file, new Uint8Array(await response.arrayBuffer()));
    const picture = await readVideo(file);
    expect(picture.errors).toBe('');
    expect(picture.decoded).toBe(1);
  }, 30_000);
});
