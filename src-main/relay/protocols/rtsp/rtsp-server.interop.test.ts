import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countFrames, probe, publishTestPattern, startRelay, waitForMedia, type RelayUnderTest } from '../../test/relay-test-kit';

describe('RTSP server: publish in, play out', () => {
  let relay: RelayUnderTest;
  let camera: ChildProcess;

  beforeAll(async () => {
    relay = await startRelay('  cam:\n');
    camera = publishTestPattern(relay.rtspUrl('cam'));
    await waitForMedia(relay, 'cam');
  }, 30_000);

  afterAll(async () => {
    camera?.kill('SIGKILL');
    await relay?.stop();
  });

  it('serves what ffmpeg publishes to ffprobe: codecs and size', async () => {
    const streams = await probe(relay.rtspUrl('cam'));
    const video = streams.find((s) => s.codec_type === 'video');
    const audio = streams.find((s) => s.codec_type === 'audio');
    expect(video).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });
    expect(audio).toMatchObject({ codec_name: 'aac' });
  }, 30_000);

  it('delivers frames at the source rate', async () => {
    const frames = await countFrames(relay.rtspUrl('cam'), 3);
    // 3 s at 25 fps = 75, plus the cached GOP a viewer starts with; allow for a loaded machine.
    expect(frames).toBeGreaterThanOrEqual(55);
    expect(frames).toBeLessThanOrEqual(130);
  }, 30_000);

  it('filters medias by the query: video only', async () => {
    const streams = await probe(relay.rtspUrl('cam?video'));
    expect(streams.map((s) => s.codec_type)).toEqual(['video']);
  }, 30_000);

  it('answers an unknown stream with 404 and a codec the source lacks with a clear error', async () => {
    const missing = await probe(relay.rtspUrl('nope')).catch((e: Error) => e.message);
    expect(missing).toMatch(/404|Not Found/);
    const mismatch = await probe(relay.rtspUrl('cam?video=h265')).catch((e: Error) => e.message);
    expect(mismatch).toMatch(/415|Unsupported/);
  }, 30_000);

  it('lists the publisher and its viewers in /api/streams and /api/stack', async () => {
    const cam = (await (await fetch(`${relay.api}/api/streams?src=cam`)).json()) as {
      producers: Array<{ medias: string[]; bytes_recv: number; receivers: Array<{ codec: Record<string, unknown>; packets: number }> }>;
    };
    expect(cam.producers[0]!.medias).toEqual(['video, recvonly, H264', 'audio, recvonly, MPEG4-GENERIC']);
    expect(cam.producers[0]!.receivers[0]!.codec).toMatchObject({
      codec_name: 'h264',
      codec_type: 'video',
      width: 320,
      height: 240,
      profile: 'Constrained Baseline',
    }); // x264's ultrafast preset
    expect(cam.producers[0]!.receivers[1]!.codec).toMatchObject({
      codec_name: 'aac',
      codec_type: 'audio',
      sample_rate: 44100,
      channels: 1,
    });
    expect(cam.producers[0]!.receivers[0]!.packets).toBeGreaterThan(10);
    expect(cam.producers[0]!.bytes_recv).toBeGreaterThan(1000);
    const stack = await (await fetch(`${relay.api}/api/stack`)).text();
    expect(stack).toContain('stream #');
    expect(stack).toMatch(/Total: \d+, Skipped: 0\n$/);
  });
});
