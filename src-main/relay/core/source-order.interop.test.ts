import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe, publishTestPattern, startRelay, waitForMedia, type RelayUnderTest } from '../test/relay-test-kit';

/**
 * Home Assistant's go2rtc stream for a camera: the camera, then ffmpeg making Opus audio of the
 * same stream, then ffmpeg making MJPEG of it. Sources start in order and only while the viewer
 * still lacks a media it asked for, as go2rtc starts them: a snapshot or an H.264 viewer needs
 * the camera alone; a viewer asking for MJPEG gets the third source.
 */
describe("sources started in order, by the viewer's codecs", () => {
  let camera: RelayUnderTest;
  let relay: RelayUnderTest;
  const stopPublisher: Array<() => void> = [];

  beforeAll(async () => {
    camera = await startRelay('  cam:\n');
    const publisher = publishTestPattern(camera.rtspUrl('cam'), 120);
    stopPublisher.push(() => publisher.kill('SIGKILL'));
    await waitForMedia(camera, 'cam');
    relay = await startRelay(
      `  front_door:\n    - ${camera.rtspUrl('cam')}\n    - "ffmpeg:front_door#audio=opus"\n    - "ffmpeg:front_door#video=mjpeg"\n`,
    );
  }, 30_000);
  afterAll(async () => {
    stopPublisher.forEach((stop) => stop());
    await relay?.stop();
    await camera?.stop();
  });

  const producers = async () =>
    (
      (await (await fetch(`${relay.api}/api/streams?src=front_door`)).json()) as {
        producers: Array<{ url: string; state?: string; medias?: string[] }>;
      }
    ).producers;

  it('a snapshot needs only the camera: the ffmpeg sources never start', async () => {
    const started = Date.now();
    const snapshot = await fetch(`${relay.api}/api/frame.jpeg?src=front_door`);
    expect(snapshot.status).toBe(200);
    const jpeg = Buffer.from(await snapshot.arrayBuffer());
    expect(jpeg.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // Home Assistant gives up on a snapshot after 10 s; the two ffmpeg sources waiting on each
    // other took 15 s before.
    expect(Date.now() - started).toBeLessThan(10_000);

    // While an H.264 + AAC viewer (stream.mp4) plays, only the camera is connected.
    const watching = new AbortController();
    const mp4 = await fetch(`${relay.api}/api/stream.mp4?src=front_door`, { signal: watching.signal });
    expect(mp4.status).toBe(200);
    await mp4.body!.getReader().read();
    const [first, second, third] = await producers();
    expect(first!.medias?.join(' ')).toMatch(/video.*H264/);
    expect(second).toEqual({ url: 'ffmpeg:front_door#audio=opus' });
    expect(third).toEqual({ url: 'ffmpeg:front_door#video=mjpeg' });
    watching.abort();
  }, 30_000);

  it('a viewer asking for MJPEG gets it from the third source, not a 415', async () => {
    const streams = await probe(`${relay.rtspUrl('front_door')}?video=mjpeg`);
    expect(streams).toEqual([expect.objectContaining({ codec_type: 'video', codec_name: 'mjpeg', width: 320, height: 240 })]);
  }, 40_000);

  it('a viewer asking for H.264 and Opus gets the video from the camera and Opus from the second source', async () => {
    const streams = await probe(`${relay.rtspUrl('front_door')}?video=h264&audio=opus`);
    expect(streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort()).toEqual(['audio:opus', 'video:h264']);
  }, 40_000);
});
