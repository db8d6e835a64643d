import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, startRelay, waitForMedia, type RelayUnderTest } from '../../test/relay-test-kit';
import { holdFor } from '@main/test-support/time';

/**
 * A UDP viewer joining a stream with a long, heavy GOP: the cached GOP (megabytes, thousands of
 * packets) must reach it whole, though it comes before PLAY, and paced, not in one burst that
 * overflows the player's socket buffer and loses packets.
 */
describe('UDP viewers and the cached GOP', () => {
  let relay: RelayUnderTest;
  let camera: ChildProcess;
  const dir = mkdtempSync(join(tmpdir(), 'gop-burst-'));
  beforeAll(async () => {
    relay = await startRelay('  heavy:\n');
    // 8 Mbit/s with a keyframe every 8 s: after 4 s the cache holds about 3,000 packets, more
    // than a viewer's usual allowance of 2,048. Encoded once ahead, so the camera costs no CPU
    // while the viewer probes the burst.
    const clip = join(dir, 'heavy.mp4');
    const encoded = await run(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=1280x720:rate=25',
        '-t',
        '10',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-g',
        '200',
        '-b:v',
        '8M',
        '-minrate',
        '8M',
        '-maxrate',
        '8M',
        '-bufsize',
        '1M',
        '-pix_fmt',
        'yuv420p',
        clip,
      ],
      30_000,
    );
    expect(encoded.code, encoded.stderr).toBe(0);
    camera = spawn(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-re',
        '-stream_loop',
        '-1',
        '-i',
        clip,
        '-c',
        'copy',
        '-f',
        'rtsp',
        '-rtsp_transport',
        'tcp',
        relay.rtspUrl('heavy'),
      ],
      { stdio: 'ignore' },
    );
    await waitForMedia(relay, 'heavy', 20_000);
    await holdFor(4_000); // the GOP cache fills up
  }, 40_000);
  afterAll(async () => {
    camera?.kill('SIGKILL');
    await relay?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a UDP viewer receives the cached GOP without losing packets', async () => {
    // The player asks for a 2 MB receive buffer, as VLC does for video (ffmpeg's own is 384 KB):
    // the paced GOP takes most of a second to arrive, and on a busy 2-core machine the player
    // can stall longer than ffmpeg's default buffer covers. Sent unpaced, the GOP still
    // overruns this buffer.
    const viewer = await run(
      'ffmpeg',
      [
        '-hide_banner',
        '-v',
        'warning',
        '-rtsp_transport',
        'udp',
        '-buffer_size',
        '2000000',
        '-i',
        relay.rtspUrl('heavy'),
        '-t',
        '2',
        '-map',
        '0:v',
        '-c',
        'copy',
        '-f',
        'null',
        '-',
      ],
      40_000,
    );
    expect(viewer.code, viewer.stderr).toBe(0);
    expect(viewer.stderr).not.toMatch(/missed \d+ packets|max delay reached/);
  }, 60_000);
});
