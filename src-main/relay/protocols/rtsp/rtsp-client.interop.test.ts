import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '@main/test-support/free-port';
import { countFrames, probe, publishTestPattern, run, startRelay, waitForMedia } from '../../test/relay-test-kit';
import { holdFor } from '@main/test-support/time';

describe('RTSP client: pulling a camera', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('pulls a camera and serves it again', async () => {
    const camera = await startRelay('  cam:\n');
    cleanups.push(() => camera.stop());
    const publisher = publishTestPattern(camera.rtspUrl('cam'));
    cleanups.push(() => void publisher.kill('SIGKILL'));
    await waitForMedia(camera, 'cam');

    const relay = await startRelay(`  door: ${camera.rtspUrl('cam')}\n`);
    cleanups.push(() => relay.stop());
    const streams = await probe(relay.rtspUrl('door'));
    expect(streams.map((s) => `${s.codec_type}:${s.codec_name}`)).toEqual(['video:h264', 'audio:aac']);
    expect(streams[0]).toMatchObject({ width: 320, height: 240 });
  }, 40_000);

  it('keeps a viewer going when the camera drops and comes back', async () => {
    const camera = await startRelay('  cam:\n');
    cleanups.push(() => camera.stop());
    let publisher: ChildProcess = publishTestPattern(camera.rtspUrl('cam'));
    cleanups.push(() => void publisher.kill('SIGKILL'));
    await waitForMedia(camera, 'cam');
    const relay = await startRelay(`  door: ${camera.rtspUrl('cam')}\n`);
    cleanups.push(() => relay.stop());

    const viewing = countFrames(relay.rtspUrl('door'), 12);
    await holdFor(3_000); // the viewer watches
    publisher.kill('SIGKILL');
    await holdFor(1_500); // the camera stays down
    publisher = publishTestPattern(camera.rtspUrl('cam'));
    const frames = await viewing;
    // About 3 s before the drop; what comes after the camera is back proves the viewer kept going.
    expect(frames).toBeGreaterThan(150);
    const door = (await (await fetch(`${relay.api}/api/streams?src=door`)).json()) as { producers: Array<{ url: string }> };
    expect(door.producers[0]!.url).toBe(camera.rtspUrl('cam'));
  }, 60_000);

  it('tells a viewer at once that the camera refuses, and serves the next viewer once the camera is up', async () => {
    const cameraPort = await freePort();
    const relay = await startRelay(`  late: rtsp://127.0.0.1:${cameraPort}/cam\n`);
    cleanups.push(() => relay.stop());
    // A refused connection is the camera's answer: the viewer is not kept waiting for the
    // whole first-dial budget (8 s) to read it, as go2rtc answers at once too.
    const asked = Date.now();
    const refused = await run('ffprobe', ['-v', 'error', '-rtsp_transport', 'tcp', relay.rtspUrl('late')], 30_000);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/503|Service Unavailable/);
    expect(Date.now() - asked).toBeLessThan(5_000);
    const info = (await (await fetch(`${relay.api}/api/streams?src=late`)).json()) as { producers: Array<{ error?: string }> };
    expect(info.producers[0]!.error).toMatch(/ECONNREFUSED/);

    const camera = await startRelay('  cam:\n', '', cameraPort);
    cleanups.push(() => camera.stop());
    const publisher = publishTestPattern(camera.rtspUrl('cam'));
    cleanups.push(() => void publisher.kill('SIGKILL'));
    await waitForMedia(camera, 'cam');
    const streams = await probe(relay.rtspUrl('late'));
    expect(streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 320 });
  }, 40_000);

  it('reports a camera that never answers, and an unreachable source, with a clear error', async () => {
    const deadPort = await freePort();
    const relay = await startRelay(`  dead: rtsp://127.0.0.1:${deadPort}/cam\n`);
    cleanups.push(() => relay.stop());
    const result = await run('ffprobe', ['-v', 'error', '-rtsp_transport', 'tcp', relay.rtspUrl('dead')], 30_000);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/503|Service Unavailable/);
    const info = (await (await fetch(`${relay.api}/api/streams?src=dead`)).json()) as { producers: Array<{ error?: string }> };
    expect(info.producers[0]!.error).toMatch(/ECONNREFUSED|connect/);
  }, 40_000);
});
