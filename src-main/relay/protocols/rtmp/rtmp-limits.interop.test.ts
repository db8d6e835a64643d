import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '@main/platform/logger';
import { createSchemeRegistry } from '../../core/scheme-registry';
import { createStreamRegistry, type StreamRegistry } from '../../core/stream-registry';
import { createTaskRegistry } from '../../core/task-registry';
import type { PublishLogin } from './publish-login';
import { RtmpConnection } from './rtmp-connection';
import { DEFAULT_RTMP_LIMITS, MEDIA_MESSAGE_BYTES, type RtmpServerLimits } from './rtmp-limits';
import { startRtmpServer, type RunningRtmpServer } from './rtmp-server';
import { messageBody, messageHeader, openTestPeer, until, type TestPeer } from './test-peer';
import { resolvesWithin } from '@main/test-support/time';

// What a connection may cost before it publishes: each limit with a client that breaks it.

const COMMAND = 20;
const VIDEO = 9;
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function server(
  limits: Partial<RtmpServerLimits> = {},
  login?: PublishLogin,
): Promise<RunningRtmpServer & { streams: StreamRegistry; logged: string[] }> {
  const logger = createMemoryLogger('warn');
  const tasks = createTaskRegistry();
  const streams = createStreamRegistry({ schemes: createSchemeRegistry(), logger, tasks });
  streams.set('garage', []);
  const running = await startRtmpServer({ listen: '127.0.0.1:0', streams, tasks, logger, limits, login });
  cleanup.push(
    () => streams.close(),
    () => running.close(),
  );
  return { ...running, streams, logged: logger.lines };
}

async function peer(port: number): Promise<TestPeer> {
  const opened = await openTestPeer(port);
  cleanup.push(() => opened.socket.destroy());
  return opened;
}

/** Whether the server closes the connection within `ms` (rather than keeping it). */
const closesWithin = (p: TestPeer, ms: number) => resolvesWithin(p.closed, ms);

describe('RTMP limits before publish', () => {
  it('closes a connection that has not published within the setup time (a half-finished handshake)', async () => {
    const rtmp = await server({ setupTimeoutMs: 400 });
    const stalled = await peer(rtmp.port);
    stalled.socket.write(Buffer.from([3, ...Buffer.alloc(700)])); // C0 and half of C1
    const shaken = await peer(rtmp.port);
    await shaken.handshake(); // a finished handshake and then nothing: no better
    expect(await closesWithin(stalled, 3_000)).toBe(true);
    expect(await closesWithin(shaken, 3_000)).toBe(true);
    expect(await stalled.closed).toBeGreaterThanOrEqual(350);
    await until(() => rtmp.stats().pending === 0);
  });

  it('refuses connections past the cap of those not yet publishing, and takes one again when a slot frees', async () => {
    const rtmp = await server({ maxPendingConnections: 3 });
    const waiting = [await peer(rtmp.port), await peer(rtmp.port), await peer(rtmp.port)];
    await until(() => rtmp.stats().pending === 3);
    const fourth = await peer(rtmp.port);
    expect(await closesWithin(fourth, 2_000)).toBe(true);
    expect(waiting.map((p) => p.isOpen())).toEqual([true, true, true]);
    waiting[0]!.socket.destroy();
    await until(() => rtmp.stats().pending === 2);
    const fifth = await peer(rtmp.port);
    await fifth.handshake();
    expect(await closesWithin(fifth, 500)).toBe(false);
  });

  it('a publisher no longer counts against the cap once it publishes', async () => {
    const rtmp = await server({ maxPendingConnections: 2 });
    const idle = await peer(rtmp.port);
    const ffmpeg: ChildProcess = spawn(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-re',
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=160x120:rate=10',
        '-t',
        '20',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-f',
        'flv',
        `rtmp://127.0.0.1:${rtmp.port}/garage`,
      ],
      { stdio: 'ignore' },
    );
    cleanup.push(() => ffmpeg.kill('SIGKILL'));
    // Publishing, ffmpeg leaves the count: one waiting connection (idle) and room for one more.
    await until(() => rtmp.streams.get('garage')!.info().producers.length > 0, 10_000);
    expect(rtmp.stats().pending).toBe(1);
    const another = await peer(rtmp.port);
    await another.handshake();
    expect(await closesWithin(another, 500)).toBe(false);
    expect(idle.isOpen()).toBe(true);
  }, 20_000);

  it(`refuses a message over ${DEFAULT_RTMP_LIMITS.maxMessageBytesBeforePublish} bytes before publish: nobody parks 8 MiB`, async () => {
    const rtmp = await server();
    const parking = await peer(rtmp.port);
    await parking.handshake();
    parking.socket.write(messageHeader(3, COMMAND, 8 * 1024 * 1024 - 1));
    expect(await closesWithin(parking, 2_000)).toBe(true);

    // Just under the limit is taken and held while it arrives, and only that much.
    const slow = await peer(rtmp.port);
    await slow.handshake();
    slow.socket.write(Buffer.concat([messageHeader(3, COMMAND, 60 * 1024), messageBody(3, 50 * 1024)]));
    await until(() => rtmp.stats().bufferedBytes >= 50 * 1024);
    expect(slow.isOpen()).toBe(true);
    expect(rtmp.stats().bufferedBytes).toBeLessThan(52 * 1024);
  });

  it('refuses unfinished messages spread over many chunk streams past twice the limit', async () => {
    const rtmp = await server({ maxMessageBytesBeforePublish: 4096 });
    const spreading = await peer(rtmp.port);
    await spreading.handshake();
    // 24 whole chunks (3 072 bytes) of a 4 000-byte message on each of chunk streams 4..7: the third passes 8 KiB.
    for (let csid = 4; csid < 8; csid++)
      spreading.socket.write(Buffer.concat([messageHeader(csid, COMMAND, 4000), messageBody(csid, 24 * 128)]));
    expect(await closesWithin(spreading, 2_000)).toBe(true);
  });

  it('takes video messages up to the media limit once publishing', async () => {
    const rtmp = await server();
    const publisher = await peer(rtmp.port);
    await publisher.handshake();
    publisher.command(['connect', 1, { app: 'live', tcUrl: `rtmp://127.0.0.1:${rtmp.port}/live` }]);
    publisher.command(['createStream', 2, null]);
    publisher.command(['publish', 3, null, 'garage', 'live'], 1);
    await until(() => publisher.received().includes('NetStream.Publish.Start'));
    expect(rtmp.stats().pending).toBe(0);
    publisher.socket.write(Buffer.concat([messageHeader(6, VIDEO, 1024 * 1024, 1), messageBody(6, 900 * 1024)]));
    await until(() => rtmp.stats().bufferedBytes >= 900 * 1024);
    expect(publisher.isOpen()).toBe(true);
    publisher.socket.write(messageHeader(7, VIDEO, MEDIA_MESSAGE_BYTES + 1, 1));
    expect(await closesWithin(publisher, 2_000)).toBe(true);
  });
});

describe('RTMP publish per connection', () => {
  it('refuses a second publish on one connection (the first would be left running with no way to end it)', async () => {
    const rtmp = await server();
    rtmp.streams.set('porch', []);
    const publisher = await peer(rtmp.port);
    await publisher.handshake();
    publisher.command(['connect', 1, { app: 'live' }]);
    publisher.command(['createStream', 2, null]);
    publisher.command(['publish', 3, null, 'garage', 'live'], 1);
    await until(() => publisher.received().includes('NetStream.Publish.Start'));
    publisher.command(['publish', 4, null, 'porch', 'live'], 1);
    expect(await closesWithin(publisher, 2_000)).toBe(true);
    expect(publisher.received()).toContain('this connection publishes already');
  });
});

describe('RTMP refusals', () => {
  it('reads nothing after refusing a connect: a publish sent right behind a wrong login is ignored', async () => {
    const rtmp = await server({}, { username: 'pub', password: 'pw', localAuth: true });
    const pipelining = await peer(rtmp.port);
    await pipelining.handshake();
    pipelining.command(['connect', 1, { app: 'live?user=pub&pass=n0t-the-passw0rd' }]);
    pipelining.command(['createStream', 2, null]);
    pipelining.command(['publish', 3, null, 'garage?user=pub&pass=pw', 'live'], 1);
    await pipelining.closed;
    await until(() => rtmp.stats().pending === 0);
    expect(pipelining.received()).toContain('NetConnection.Connect.Rejected');
    // A publish the server took would have ended here, with the connection, before any media.
    expect(rtmp.logged.join('\n')).toContain('RTMP connect refused: wrong login');
    expect(rtmp.logged.join('\n')).not.toContain('RTMP publish');
    expect(rtmp.logged.join('\n')).not.toContain('n0t-the-passw0rd');
  });
});

describe('RTMP buffers on close', () => {
  it("a closed connection holds none of its peer's bytes, even while something still refers to it", async () => {
    const accepted: Socket[] = [];
    const tcp = createServer((socket) => accepted.push(socket));
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise((resolve) => tcp.close(resolve)));
    const client = await peer((tcp.address() as { port: number }).port);
    await until(() => accepted.length === 1);
    const socket = accepted[0]!;
    socket.on('error', () => undefined);
    const connection = new RtmpConnection(
      socket,
      'server',
      { command: () => undefined, data: () => undefined, media: () => undefined, error: () => undefined },
      64 * 1024,
    );
    await client.handshake();
    client.socket.write(Buffer.concat([messageHeader(3, COMMAND, 60 * 1024), messageBody(3, 50 * 1024)]));
    await until(() => connection.bufferedBytes >= 50 * 1024);
    client.socket.destroy();
    await new Promise((resolve) => socket.once('close', resolve));
    expect(connection.bufferedBytes).toBe(0);
  });
});
