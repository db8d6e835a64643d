import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, startRelay, waitForMedia, type RelayUnderTest } from '../test/relay-test-kit';

/**
 * A UDP viewer joining a stream with a long, heavy GOP: the cached GOP (megabytes) must reach it
 * paced, not in one burst that overflows the player's socket buffer and loses packets.
 */
describe('UDP viewers and the cached GOP', () => {
  let relay: RelayUnderTest;
  let camera: ChildProcess;
  beforeAll(async () => {
    relay = await startRelay('  heavy:\n');
    // 8 Mbit/s with a keyframe every 8 s: after 4 s the cache holds about 4 MB (some 3,000 packets).
    camera = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25', '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency',
      '-g', '200', '-b:v', '8M', '-minrate', '8M', '-maxrate', '8M', '-bufsize', '1M', '-pix_fmt', 'yuv420p', '-f', 'rtsp', '-rtsp_transport', 'tcp', relay.rtspUrl('heavy')], { stdio: 'ignore' });
    await waitForMedia(relay, 'heavy', 20_000);
    await new Promise((resolve) => setTimeout(resolve, 4_000));
  }, 40_000);
  afterAll(async () => {
    camera?.kill('SIGKILL');
    await relay?.stop();
  });

  it('a UDP viewer receives the cached GOP without losing packets', async () => {
    const viewer = await run('ffmpeg', ['-hide_banner', '-v', 'warning', '-rtsp_transport', 'udp', '-i', relay.rtspUrl('heavy'), '-t', '2', '-map', '0:v', '-c', 'copy', '-f', 'null', '-'], 40_000);
    expect(viewer.code, viewer.stderr).toBe(0);
    expect(viewer.stderr).not.toMatch(/missed \d+ packets|max delay reached/);
  }, 60_000);
});
