import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '@main/platform/logger';
import { createTaskRegistry } from '../../core/task-registry';
import type { RtpPacket } from '../../core/rtp-packet';
import { RtspUdpSession } from './rtsp-udp-session';
import { holdFor, quietFor, waitUntil } from '@main/test-support/time';

async function receiver(): Promise<{ socket: UdpSocket; port: number; datagrams: Buffer[] }> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const datagrams: Buffer[] = [];
  socket.on('message', (data: Buffer) => datagrams.push(data));
  return { socket, port: socket.address().port, datagrams };
}

const packet = (sequenceNumber: number, size = 100): RtpPacket => ({
  marker: false,
  payloadType: 96,
  sequenceNumber,
  timestamp: sequenceNumber * 3000,
  ssrc: 1,
  payload: new Uint8Array(size).fill(7),
});
const until = (check: () => boolean) => waitUntil(check, { interval: 20 });

describe('RTSP UDP session', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

  async function start(options: { timeoutMs?: number; sendQueueLimit?: number } = {}) {
    const tasks = createTaskRegistry();
    let timedOut = 0;
    const session = new RtspUdpSession({
      localAddress: '::ffff:127.0.0.1',
      peerAddress: '::ffff:127.0.0.1',
      tasks,
      logger: createMemoryLogger('error'),
      onTimeout: () => timedOut++,
      tickMs: 50,
      reportIntervalMs: 200,
      ...options,
    });
    const rtp = await receiver();
    const rtcp = await receiver();
    cleanups.push(() => {
      session.close();
      rtp.socket.close();
      rtcp.socket.close();
    });
    const output = await session.addOutput({ rtpPort: rtp.port, rtcpPort: rtcp.port }, 90_000);
    return { tasks, session, output, rtp, rtcp, timedOut: () => timedOut };
  }

  it('never holds the relay up: a socket this far behind drops, and counts it', async () => {
    const { output, rtp } = await start({ sendQueueLimit: 64 });
    let sent = 0;
    for (let i = 0; i < 1000; i++) if (output.send(packet(i)) > 0) sent++;
    expect(sent).toBe(64);
    expect(output.drops).toBe(936);
    await until(() => rtp.datagrams.length === 64);
    // Once the socket has caught up, packets go out again.
    expect(output.send(packet(1000))).toBe(112);
    await until(() => rtp.datagrams.length === 65);
  });

  it('sends a burst of 64 at once and the rest of a cached GOP at 4 a millisecond, in order', async () => {
    const { output, rtp } = await start();
    const started = performance.now();
    for (let i = 0; i < 1000; i++) output.send(packet(i));
    await until(() => rtp.datagrams.length === 1000);
    // The 936 beyond the burst need 234 ms at the pacing rate; a slow timer only makes it longer.
    expect(performance.now() - started).toBeGreaterThanOrEqual(234);
    expect(rtp.datagrams.map((d) => d.readUInt16BE(2))).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(output.drops).toBe(0);
  });

  it('sends large packets whole, and one too large for a datagram fails alone', async () => {
    const { output, rtp } = await start();
    expect(output.send(packet(1, 9_000))).toBe(9_012);
    await until(() => rtp.datagrams.length === 1);
    expect(rtp.datagrams[0]!.length).toBe(9_012);
    output.send(packet(2, 70_000));
    await until(() => output.drops === 1);
    output.send(packet(3));
    await until(() => rtp.datagrams.length === 2);
    expect(rtp.datagrams[1]!.readUInt16BE(2)).toBe(3);
  });

  it('reports every interval once RTP went out, with the counts so far', async () => {
    const { output, rtcp } = await start();
    await quietFor(300); // longer than the 200 ms report interval
    expect(rtcp.datagrams).toEqual([]); // nothing sent yet: no report
    for (let i = 0; i < 10; i++) output.send(packet(i));
    await until(() => rtcp.datagrams.length >= 2);
    const report = rtcp.datagrams[0]!;
    expect(report[1]).toBe(200);
    expect(report.readUInt32BE(4)).toBe(output.ssrc);
    expect(report.readUInt32BE(20)).toBe(10);
    expect(report.readUInt32BE(24)).toBe(1_000);
  });

  it('times out without a sign of the client, closing its sockets and timer; a datagram from the client counts as one', async () => {
    const { tasks, session, output, timedOut } = await start({ timeoutMs: 800 });
    expect(tasks.dump()).toMatch(/socket #\d+ \[0s\]: rtsp udp rtp 127\.0\.0\.1:\d+ → 127\.0\.0\.1:\d+/);
    expect(tasks.count()).toBe(3);
    const client = createSocket('udp4');
    cleanups.push(() => client.close());
    // A sign of life every 100 ms for 1.2 s, longer than the 800 ms timeout.
    for (let i = 0; i < 12; i++) {
      client.send(Buffer.from([0x80, 201, 0, 1, 0, 0, 0, 1]), output.server.rtcpPort, '127.0.0.1');
      await holdFor(100);
    }
    expect(timedOut()).toBe(0);
    await until(() => timedOut() === 1);
    expect(tasks.count()).toBe(0);
    expect(session.outputCount).toBe(0);
  });
});
