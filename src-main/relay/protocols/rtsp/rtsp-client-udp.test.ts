import { createSocket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '@main/platform/logger';
import { serializeRtpPacket, type RtpPacket } from '../../core/rtp-packet';
import { createTaskRegistry } from '../../core/task-registry';
import { waitFor } from '../../test/relay-test-kit';
import { createRtspDialer, dialRtsp, parseRtspSource } from './rtsp-client';
import { startFakeUdpCamera, type FakeUdpCamera } from './rtsp-client-udp-fake-camera';
import { startTwoWayCamera } from './test-support/two-way-camera';
import { buildSenderReport, ntpTimestamp } from './rtsp-udp-rtcp';
import { quietFor } from '@main/test-support/time';

const CAMERA_SSRC = 0x0bad_cafe;
const rtp = (sequenceNumber: number) =>
  serializeRtpPacket({
    marker: false,
    payloadType: 0,
    sequenceNumber,
    timestamp: sequenceNumber * 160,
    ssrc: CAMERA_SSRC,
    payload: new Uint8Array(160).fill(sequenceNumber),
  });
const context = () => ({ signal: new AbortController().signal, streamName: 'door' });
const udpLines = (tasks: ReturnType<typeof createTaskRegistry>) =>
  tasks
    .dump()
    .split('\n')
    .filter((line) => line.includes('rtsp client udp'));

describe('RTSP client: the #transport option', () => {
  it('reads udp and tcp next to the other options, TCP by default, and says what is wrong with anything else', () => {
    expect(parseRtspSource('rtsp://cam/live')).toEqual({ url: 'rtsp://cam/live', backchannel: true, transport: 'tcp' });
    expect(parseRtspSource('rtsp://cam/live#transport=udp')).toMatchObject({ url: 'rtsp://cam/live', transport: 'udp' });
    expect(parseRtspSource('rtsp://cam/live#backchannel=0#transport=UDP')).toEqual({
      url: 'rtsp://cam/live',
      backchannel: false,
      transport: 'udp',
    });
    expect(parseRtspSource('rtsp://cam/live#transport=tcp')).toMatchObject({ transport: 'tcp' });
    expect(() => parseRtspSource('rtsp://cam/live#transport=sctp')).toThrow(
      'rtsp: #transport=sctp is not known; use #transport=udp or #transport=tcp',
    );
  });
});

describe('RTSP client: RTP over UDP from a camera', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function camera(options: { refuseUdp?: boolean } = {}): Promise<FakeUdpCamera> {
    const started = await startFakeUdpCamera(options);
    cleanups.push(() => started.close());
    return started;
  }

  it('sets up a port pair, passes on late packets, drops duplicates and strangers, reports, and cleans up on close', async () => {
    const cam = await camera();
    const tasks = createTaskRegistry();
    const connection = await dialRtsp(`${cam.url}#transport=udp#backchannel=0`, context(), { tasks, udpReportIntervalMs: 150 });
    cleanups.push(() => connection.close());

    const setup = cam.requests[0]!.find((line) => line.startsWith('SETUP'))!;
    const [, rtpPort, rtcpPort] = /^SETUP RTP\/AVP;unicast;client_port=(\d+)-(\d+)$/.exec(setup)!.map(Number);
    expect(rtpPort! % 2).toBe(0);
    expect(rtcpPort).toBe(rtpPort! + 1);
    expect(connection.info()).toMatchObject({ protocol: 'rtsp+udp', remote_addr: cam.url.split('/')[2] });
    expect(udpLines(tasks)).toHaveLength(2); // the socket pair; the report timer starts with PLAY

    const received: number[] = [];
    connection.start((index, packet: RtpPacket) => {
      expect(index).toBe(0);
      received.push(packet.sequenceNumber);
    });
    // Before any media, the client opened the way: an empty RTP packet and a receiver report.
    await waitFor(() => (cam.rtpIn.length > 0 && cam.rtcpIn.length > 0 ? true : undefined));
    expect(cam.rtpIn[0]!.length).toBe(12);
    expect(cam.rtcpIn[0]![1]).toBe(201);
    expect(udpLines(tasks)).toHaveLength(3);
    await waitFor(() => (cam.requests[0]!.some((line) => line.startsWith('PLAY')) ? true : undefined));

    // A stranger on another loopback address is ignored, whatever it sends.
    const stranger = createSocket('udp4');
    await new Promise<void>((resolve) => stranger.bind(0, '127.0.0.2', resolve));
    cleanups.push(() => void stranger.close());
    stranger.send(rtp(100), rtpPort!, '127.0.0.1');
    for (const seq of [1, 2, 2, 4, 3, 5, 7]) cam.sendRtp(rtp(seq));
    await waitFor(() => (received.includes(7) ? true : undefined));
    await quietFor(100); // room for anything that should not come
    expect(received).toEqual([1, 2, 4, 3, 5, 7]);

    // The camera's sender report comes back in the receiver reports as LSR.
    const wallClockMs = Date.now();
    cam.sendRtcp(buildSenderReport({ ssrc: CAMERA_SSRC, wallClockMs, rtpTimestamp: 7 * 160, packets: 7, octets: 7 * 160, cname: 'cam' }));
    const ntp = ntpTimestamp(wallClockMs);
    const lsr = (((ntp.seconds & 0xffff) << 16) | (ntp.fraction >>> 16)) >>> 0;
    const report = await waitFor(() => cam.rtcpIn.find((p) => p[0] === 0x81 && p[1] === 201 && p.readUInt32BE(24) === lsr));
    expect(report.readUInt32BE(8)).toBe(CAMERA_SSRC);
    expect(report.readIntBE(13, 3)).toBe(1); // seq 6 never came
    expect(report.readUInt32BE(16)).toBe(7);
    expect(connection.info().bytes_recv).toBeGreaterThan(6 * 172);

    connection.close();
    expect(udpLines(tasks)).toEqual([]);
    expect(await connection.closed).toBeUndefined();
    // Over UDP the camera hears TEARDOWN: its session may outlive the TCP connection.
    await waitFor(() => (cam.requests[0]!.includes('TEARDOWN') ? true : undefined));
    expect(tasks.count()).toBe(0);
  }, 20_000);

  it('closes the sockets when the camera hangs up', async () => {
    const cam = await camera();
    const tasks = createTaskRegistry();
    const connection = await dialRtsp(`${cam.url}#transport=udp#backchannel=0`, context(), { tasks });
    connection.start(() => undefined);
    expect(udpLines(tasks)).toHaveLength(3);
    await cam.close();
    expect(await connection.closed).toBeInstanceOf(Error);
    expect(udpLines(tasks)).toEqual([]);
  }, 20_000);

  it('falls back to TCP on a fresh connection when the camera answers 461, and says so once', async () => {
    const cam = await camera({ refuseUdp: true });
    const tasks = createTaskRegistry();
    const logger = createMemoryLogger('info');
    const dial = createRtspDialer({ tasks, logger });

    const connection = await dial(`${cam.url}#transport=udp#backchannel=0`, context());
    cleanups.push(() => connection.close());
    expect(cam.requests).toHaveLength(2);
    expect(cam.requests[0]!.filter((line) => line.startsWith('SETUP'))).toEqual([
      expect.stringMatching(/^SETUP RTP\/AVP;unicast;client_port=\d+-\d+$/),
    ]);
    expect(cam.requests[1]!.filter((line) => line.startsWith('SETUP'))).toEqual(['SETUP RTP/AVP/TCP;unicast;interleaved=0-1']);
    expect(connection.info().protocol).toBe('rtsp+tcp');
    expect(udpLines(tasks)).toEqual([]);

    const received: number[] = [];
    connection.start((_index, packet) => received.push(packet.sequenceNumber));
    await waitFor(() => (cam.requests[1]!.some((line) => line.startsWith('PLAY')) ? true : undefined));
    cam.sendRtp(rtp(42));
    await waitFor(() => (received.includes(42) ? true : undefined));

    // The same dialer goes straight to TCP next time, and does not say it again.
    const again = await dial(`${cam.url}#transport=udp#backchannel=0`, context());
    cleanups.push(() => again.close());
    expect(cam.requests).toHaveLength(3);
    expect(cam.requests[2]!.filter((line) => line.startsWith('SETUP'))).toEqual(['SETUP RTP/AVP/TCP;unicast;interleaved=0-1']);
    const said = logger.lines.filter((line) => line.includes('does not serve RTP over UDP'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('461');
  }, 20_000);

  it('falls back to TCP as well when the camera grants interleaved TCP to a UDP SETUP; its speaker still plays', async () => {
    const twoWay = await startTwoWayCamera();
    cleanups.push(() => twoWay.close());
    const logger = createMemoryLogger('info');
    const connection = await createRtspDialer({ logger })(`${twoWay.url}#transport=udp`, context());
    cleanups.push(() => connection.close());
    expect(connection.info().protocol).toBe('rtsp+tcp');
    expect(logger.lines.filter((line) => line.includes('does not serve RTP over UDP'))).toHaveLength(1);
    connection.start(() => undefined);
    const speaker = connection.medias.findIndex((media) => media.direction === 'sendonly');
    expect(speaker).toBeGreaterThanOrEqual(0);
    await waitFor(() =>
      connection.send!(speaker, { marker: false, payloadType: 8, sequenceNumber: 9, timestamp: 0, ssrc: 1, payload: new Uint8Array(160) })
        ? true
        : undefined,
    );
    await waitFor(() => (twoWay.received.some((packet) => packet.sequenceNumber === 9) ? true : undefined));
  }, 20_000);
});
