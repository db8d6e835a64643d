import type { ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '@main/platform/logger';
import { waitUntil } from '@main/test-support/time';
import { startsKeyframe } from '../../core/keyframe';
import type { ProducerConnection } from '../../core/producer';
import { parseRtpPacket, serializeRtpPacket } from '../../core/rtp-packet';
import { createSchemeRegistry } from '../../core/scheme-registry';
import { createStreamRegistry, type StreamRegistry } from '../../core/stream-registry';
import { createTaskRegistry } from '../../core/task-registry';
import { publishTestPattern } from '../../test/relay-test-kit';
import { interleavedFrame } from './rtsp-parser';
import { startRtspServer, type RunningRtspServer } from './rtsp-server';
import { buildSdp } from './sdp';

/** One RTSP exchange on a connection that carries nothing else yet: resolves with the answer's head. */
function request(socket: Socket, lines: string[], body = ''): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (data: Buffer) => {
      text += data.toString('latin1');
      if (!text.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      resolve(text);
    };
    socket.on('data', onData);
    const length = body ? [`Content-Length: ${Buffer.byteLength(body)}`] : [];
    socket.write([...lines, ...length].join('\r\n') + '\r\n\r\n' + body);
  });
}

/** A viewer over TCP: what it got on the video channel, in arrival order, as RTP packets' bytes. */
interface Viewer {
  socket: Socket;
  packets: Buffer[];
}

async function play(port: number): Promise<Viewer> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const url = `rtsp://127.0.0.1:${port}/cam`;
  await request(socket, [`DESCRIBE ${url} RTSP/1.0`, 'CSeq: 1', 'Accept: application/sdp']);
  const setup = await request(socket, [`SETUP ${url}/trackID=0 RTSP/1.0`, 'CSeq: 2', 'Transport: RTP/AVP/TCP;unicast;interleaved=0-1']);
  const session = /Session: ([^;\r\n]+)/.exec(setup)![1]!;
  const packets: Buffer[] = [];
  let buffer: Buffer = Buffer.alloc(0);
  let answered = false;
  socket.on('data', (chunk: Buffer) => {
    buffer = buffer.length > 0 ? Buffer.concat([buffer, chunk]) : chunk;
    // The PLAY answer comes first, then only interleaved frames.
    if (!answered) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      answered = true;
      buffer = buffer.subarray(end + 4);
    }
    while (buffer.length >= 4 && buffer[0] === 0x24) {
      const length = buffer.readUInt16BE(2);
      if (buffer.length < 4 + length) break;
      if (buffer[1] === 0) packets.push(Buffer.from(buffer.subarray(4, 4 + length)));
      buffer = buffer.subarray(4 + length);
    }
  });
  socket.write(`PLAY ${url} RTSP/1.0\r\nCSeq: 3\r\nSession: ${session}\r\n\r\n`);
  return { socket, packets };
}

/**
 * One relay, a real H264 camera (ffmpeg) and a hundred viewers over TCP, the case the viewers'
 * shared writes are made for: each viewer must get every packet from its first picture on,
 * byte for byte and in order, while others join and leave around it.
 */
describe('RTSP server: a hundred TCP viewers of one camera', () => {
  const logger = createMemoryLogger('error');
  const tasks = createTaskRegistry();
  let tap: RunningRtspServer;
  let relay: RunningRtspServer;
  let streams: StreamRegistry;
  let camera: ChildProcess;
  let source: ProducerConnection;
  let upstream: Socket;
  /** What went into the relay, in order: each packet's RTP bytes, and whether it opens a keyframe. */
  const sent: Array<{ rtp: Buffer; keyframe: boolean }> = [];
  let forwarding = true;
  /** Once this many packets have gone in, forwarding stops at the next picture's end. */
  let stopAt = Infinity;

  beforeAll(async () => {
    // ffmpeg publishes to a tap; this test forwards each video packet to the relay and keeps a
    // copy, so what every viewer got can be compared with what went in.
    const schemes = createSchemeRegistry();
    tap = await startRtspServer({
      host: '127.0.0.1',
      port: 0,
      streams: createStreamRegistry({ schemes, logger, tasks }),
      tasks,
      logger,
      defaultQuery: 'video',
    });
    streams = createStreamRegistry({ schemes, logger, tasks });
    streams.set('cam', []);
    relay = await startRtspServer({ host: '127.0.0.1', port: 0, streams, tasks, logger, defaultQuery: 'video' });
    const published = tap.expectPublish('camera', 20_000);
    camera = publishTestPattern(`rtsp://127.0.0.1:${tap.port}/camera`, 60, 25);
    source = await published;
    const video = source.medias.findIndex((media) => media.kind === 'video');
    const codec = source.medias[video]!.codecs[0]!;
    const target = `rtsp://127.0.0.1:${relay.port}/cam`;
    upstream = connect(relay.port, '127.0.0.1');
    await new Promise((resolve) => upstream.once('connect', resolve));
    const sdp = buildSdp([{ kind: 'video', codec }], { sessionName: 'fan-out test' });
    await request(upstream, [`ANNOUNCE ${target} RTSP/1.0`, 'CSeq: 1', 'Content-Type: application/sdp'], sdp);
    await request(upstream, [
      `SETUP ${target}/trackID=0 RTSP/1.0`,
      'CSeq: 2',
      'Transport: RTP/AVP/TCP;unicast;interleaved=0-1;mode=record',
    ]);
    await request(upstream, [`RECORD ${target} RTSP/1.0`, 'CSeq: 3']);
    source.start((index, packet) => {
      if (index !== video || !forwarding) return;
      const rtp = serializeRtpPacket(packet);
      sent.push({ rtp, keyframe: startsKeyframe('H264', packet) });
      upstream.write(interleavedFrame(0, rtp));
      // Stops after a picture's last packet: every viewer then has whole pictures to compare.
      if (packet.marker && sent.length >= stopAt) forwarding = false;
    });
  }, 30_000);

  afterAll(async () => {
    camera?.kill('SIGKILL');
    source?.close();
    upstream?.destroy();
    await relay?.close();
    await tap?.close();
  });

  it('gets every packet to every viewer, in order, byte for byte, while ten others leave mid-stream', async () => {
    await waitUntil(() => sent.some((packet) => packet.keyframe), { timeout: 10_000, what: 'the first keyframe' });
    const viewers = await Promise.all(Array.from({ length: 100 }, () => play(relay.port)));
    const leaving = await Promise.all(Array.from({ length: 10 }, () => play(relay.port)));
    await waitUntil(() => leaving.every((viewer) => viewer.packets.length > 50), { timeout: 20_000, what: 'the leaving viewers to play' });
    for (const viewer of leaving) viewer.socket.destroy();
    stopAt = sent.length + 150;
    await waitUntil(() => !forwarding, { timeout: 20_000, what: 'the camera to send 150 packets more' });
    const last = sent.at(-1)!.rtp;
    await waitUntil(() => viewers.every((viewer) => viewer.packets.at(-1)?.equals(last)), {
      timeout: 10_000,
      what: 'every viewer to get the last packet sent',
    });

    const sequence = (rtp: Buffer) => parseRtpPacket(rtp).sequenceNumber;
    for (const [n, viewer] of viewers.entries()) {
      // A viewer starts with the cached picture group: the packets from its keyframe on.
      const first = sent.findIndex((packet) => packet.rtp.equals(viewer.packets[0]!));
      expect(first, `viewer ${n}'s first packet`).toBeGreaterThanOrEqual(0);
      expect(sent[first]!.keyframe, `viewer ${n} starts on a keyframe`).toBe(true);
      const expected = sent.slice(first).map((packet) => packet.rtp);
      expect(viewer.packets.length, `viewer ${n}: packets`).toBe(expected.length);
      const wrong = viewer.packets.findIndex((rtp, i) => !rtp.equals(expected[i]!));
      expect(wrong === -1 ? 'all as sent' : `packet ${wrong} (seq ${sequence(viewer.packets[wrong]!)})`, `viewer ${n}`).toBe('all as sent');
      viewer.socket.destroy();
    }
    // The ones that left took nothing with them: the relay holds no viewer any more.
    await waitUntil(() => streams.get('cam')?.consumerCount === 0, { timeout: 5_000, what: 'the relay to let go of every viewer' });
  }, 120_000);
});
