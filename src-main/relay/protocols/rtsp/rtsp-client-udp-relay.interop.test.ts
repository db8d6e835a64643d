import { createSocket } from 'node:dgram';
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '@main/platform/logger';
import { createSchemeRegistry } from '../../core/scheme-registry';
import { createStreamRegistry } from '../../core/stream-registry';
import { createTaskRegistry } from '../../core/task-registry';
import { publishTestPattern, run, startRelay, waitFor, waitForMedia, type RelayUnderTest } from '../../test/relay-test-kit';
import { createRtspDialer } from './rtsp-client';
import { startRtspServer } from './rtsp-server';

/** A second relay whose `door` pulls `source`, with the RTSP client's sockets in its own task registry. */
async function startPullingRelay(source: string) {
  const tasks = createTaskRegistry();
  const logger = createMemoryLogger('warn');
  const schemes = createSchemeRegistry();
  schemes.register('rtsp', { dial: createRtspDialer({ tasks, logger }) });
  const streams = createStreamRegistry({ schemes, logger, tasks });
  streams.set('door', [source]);
  const server = await startRtspServer({ host: '127.0.0.1', port: 0, streams, tasks, logger, defaultQuery: 'video&audio' });
  let stopped = false;
  return {
    tasks,
    streams,
    url: `rtsp://127.0.0.1:${server.port}/door`,
    udpLines: () =>
      tasks
        .dump()
        .split('\n')
        .filter((line) => line.includes('rtsp client udp')),
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.close();
      streams.close();
    },
  };
}

const consumerProtocols = async (relay: RelayUnderTest, stream: string): Promise<string[]> => {
  const info = (await (await fetch(`${relay.api}/api/streams?src=${stream}`)).json()) as { consumers?: Array<{ protocol?: string }> };
  return (info.consumers ?? []).map((c) => c.protocol ?? '');
};

/** Whether a UDP port on loopback is free again (its socket really closed). */
const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createSocket('udp4');
    socket.once('error', () => resolve(false));
    socket.bind({ port, address: '127.0.0.1', exclusive: true }, () => socket.close(() => resolve(true)));
  });

describe('RTSP client: a relay pulling a relay over UDP', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('serves what it pulls with #transport=udp, shows up as rtsp+udp upstream, and leaves no socket behind', async () => {
    const camera = await startRelay('  cam:\n');
    cleanups.push(() => camera.stop());
    const publisher: ChildProcess = publishTestPattern(camera.rtspUrl('cam'), 60);
    cleanups.push(() => void publisher.kill('SIGKILL'));
    await waitForMedia(camera, 'cam', 20_000);

    const relay = await startPullingRelay(`${camera.rtspUrl('cam')}#transport=udp`);
    cleanups.push(() => relay.stop());

    const probed = await run(
      'ffprobe',
      ['-v', 'error', '-rtsp_transport', 'tcp', '-show_entries', 'stream=codec_name,codec_type,width,height', '-of', 'json', relay.url],
      30_000,
    );
    expect(probed.code).toBe(0);
    const streams = (JSON.parse(probed.stdout) as { streams: Array<Record<string, unknown>> }).streams;
    expect(streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });
    expect(streams.find((s) => s.codec_type === 'audio')).toMatchObject({ codec_name: 'aac' });
    // The last viewer gone, the pull stops and its sockets close.
    await waitFor(() => (relay.udpLines().length === 0 ? true : undefined), 15_000);

    // A viewer that stays: upstream sees a UDP viewer, downstream holds two socket pairs and the report timer.
    const viewer = run(
      'ffmpeg',
      ['-hide_banner', '-rtsp_transport', 'tcp', '-i', relay.url, '-t', '30', '-map', '0:v', '-f', 'null', '-'],
      40_000,
    );
    const lines = await waitFor(async () => {
      const udp = relay.udpLines();
      return udp.length === 5 && (await consumerProtocols(camera, 'cam')).includes('rtsp+udp') ? udp : undefined;
    }, 20_000);
    expect(lines.filter((line) => line.startsWith('socket #'))).toHaveLength(4);
    expect(relay.streams.get('door')!.info().producers[0]).toMatchObject({ protocol: 'rtsp+udp' });
    // Media really comes over UDP (the RTSP connection carries no RTP in this mode): 2 s of video.
    await waitFor(() => {
      const receivers = (relay.streams.get('door')!.info().producers[0]?.receivers ?? []) as Array<{ packets: number }>;
      return receivers.length === 2 && receivers.every((r) => r.packets > 0) && receivers[0]!.packets > 50 ? true : undefined;
    }, 20_000);
    const ports = lines.flatMap((line) => [...(/:(\d+) ←/.exec(line) ?? [])].slice(1)).map(Number);
    expect(ports).toHaveLength(4);

    await relay.stop();
    expect(relay.udpLines()).toEqual([]);
    for (const port of ports) expect(await portIsFree(port)).toBe(true);
    // Upstream the UDP viewer is gone too (TEARDOWN, then the connection closed).
    await waitFor(async () => ((await consumerProtocols(camera, 'cam')).includes('rtsp+udp') ? undefined : true), 15_000);
    expect((await viewer).code).not.toBe(null);
  }, 90_000);
});
