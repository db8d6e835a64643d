import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { countFrames, probe, startRelay, waitFor, type RelayUnderTest } from '../../test/relay-test-kit';
import { startGstCamera, type GstCamera } from './test-support/gst-camera';

/**
 * Cameras served by GStreamer's RTSP server (gst-rtsp-server, inside many IP cameras and NVRs),
 * plain and ONVIF with a backchannel, pulled with a default rtsp:// source: no fragment needed.
 */
describe('cameras served by GStreamer', () => {
  let relay: RelayUnderTest | undefined;
  const cameras: GstCamera[] = [];
  afterEach(async () => {
    await relay?.stop();
    relay = undefined;
    await Promise.all(cameras.splice(0).map((c) => c.stop()));
  });

  const start = async (options: Parameters<typeof startGstCamera>[0]) => {
    const camera = await startGstCamera(options);
    cameras.push(camera);
    return camera;
  };

  const producer = async (name: string) =>
    ((await (await fetch(`${relay!.api}/api/streams?src=${name}`)).json()) as { producers: Array<{ medias?: string[]; error?: string }> })
      .producers[0]!;

  const snapshotSize = async (name: string) => {
    const response = await fetch(`${relay!.api}/api/frame.jpeg?src=${name}`);
    expect(
      response.status,
      await response
        .clone()
        .text()
        .catch(() => ''),
    ).toBe(200);
    const { width, height } = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    return `${width}x${height}`;
  };

  it('a plain GStreamer camera (it refuses the ONVIF Require header) plays with a default rtsp:// source', async () => {
    const camera = await start({ size: '320x240' });
    relay = await startRelay(`  cam: ${camera.url}\n`);
    const streams = await probe(relay.rtspUrl('cam'));
    expect(streams.map((s) => s.codec_name).sort()).toEqual(['h264', 'pcm_mulaw']);
    expect(streams.find((s) => s.codec_name === 'h264')).toMatchObject({ width: 320, height: 240 });
    expect(await countFrames(relay.rtspUrl('cam'), 2)).toBeGreaterThan(10);
    expect(await snapshotSize('cam')).toBe('320x240');
  }, 60_000);

  it('an ONVIF GStreamer camera plays with a default rtsp:// source and shows its speaker as two-way audio', async () => {
    const camera = await start({ size: '320x240', onvif: true });
    relay = await startRelay(`  door: ${camera.url}\n`);
    expect(await countFrames(relay.rtspUrl('door'), 2)).toBeGreaterThan(10);
    const probed = (await (await fetch(`${relay.api}/api/streams?src=door&video=all&audio=all&microphone`)).json()) as {
      producers: Array<{ medias?: string[] }>;
    };
    expect(probed.producers[0]!.medias).toEqual(
      expect.arrayContaining([expect.stringMatching(/^video, recvonly, H264/), expect.stringMatching(/^audio, sendonly, PCMU/)]),
    );
  }, 60_000);

  it('a camera restarted at another size gives snapshots of the new size', async () => {
    const first = await start({ size: '320x240' });
    relay = await startRelay(`  cam: ${first.url}\n`);
    expect(await snapshotSize('cam')).toBe('320x240');
    await first.stop();
    cameras.splice(cameras.indexOf(first), 1);
    // The stream goes idle once the snapshot's source hangs up; the camera reboots on its port.
    await waitFor(async () => ((await producer('cam')).medias === undefined ? true : undefined), 20_000);
    await start({ size: '640x480', port: first.port });
    expect(await snapshotSize('cam')).toBe('640x480');
  }, 90_000);
});
