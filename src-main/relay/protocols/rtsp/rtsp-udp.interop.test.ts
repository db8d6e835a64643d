import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { connect, type Socket } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '@main/platform/logger';
import { createSchemeRegistry } from '../../core/scheme-registry';
import { createStreamRegistry } from '../../core/stream-registry';
import { createTaskRegistry } from '../../core/task-registry';
import { publishTestPattern, run, startRelay, waitFor, waitForMedia, type RelayUnderTest } from '../../test/relay-test-kit';
import { dialRtsp } from './rtsp-client';
import { startRtspServer } from './rtsp-server';
import { holdFor, waitUntil } from '@main/test-support/time';

/** A hand-driven RTSP client: one request at a time, answers as text. */
class RawRtspClient {
  private buffer = '';
  private cseq = 0;
  private waiting?: (answer: string) => void;
  readonly socket: Socket;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('error', () => undefined);
    this.socket.on('data', (data: Buffer) => {
      this.buffer += data.toString('latin1');
      this.deliver();
    });
  }

  private deliver(): void {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0 || !this.waiting) return;
    const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.slice(0, end))?.[1] ?? '0');
    if (this.buffer.length < end + 4 + length) return;
    const answer = this.buffer.slice(0, end + 4 + length);
    this.buffer = this.buffer.slice(end + 4 + length);
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting(answer);
  }

  request(method: string, uri: string, headers: Record<string, string> = {}, body = ''): Promise<string> {
    const lines = [`${method} ${uri} RTSP/1.0`, `CSeq: ${++this.cseq}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    if (body) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${method}`)), 10_000);
      this.waiting = (answer) => {
        clearTimeout(timer);
        resolve(answer);
      };
      this.socket.write(lines.join('\r\n') + '\r\n\r\n' + body);
      this.deliver();
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

/** A UDP port pair on loopback for the client side, with every datagram kept. */
async function clientPair(): Promise<{ rtp: UdpSocket; rtcp: UdpSocket; rtpPackets: Buffer[]; rtcpPackets: Buffer[]; close(): void }> {
  const rtp = createSocket('udp4');
  const rtcp = createSocket('udp4');
  await new Promise<void>((resolve) => rtp.bind(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => rtcp.bind(0, '127.0.0.1', resolve));
  const rtpPackets: Buffer[] = [];
  const rtcpPackets: Buffer[] = [];
  rtp.on('message', (data: Buffer) => rtpPackets.push(data));
  rtcp.on('message', (data: Buffer) => rtcpPackets.push(data));
  return { rtp, rtcp, rtpPackets, rtcpPackets, close: () => [rtp, rtcp].forEach((s) => s.close()) };
}

const udpTasks = async (relay: RelayUnderTest): Promise<string[]> =>
  (await (await fetch(`${relay.api}/api/stack`)).text()).split('\n').filter((line) => line.includes('rtsp udp'));

describe('RTSP server: play over UDP', () => {
  let relay: RelayUnderTest;
  let camera: ChildProcess;

  beforeAll(async () => {
    relay = await startRelay('  cam:\n  other:\n');
    camera = publishTestPattern(relay.rtspUrl('cam'), 60);
    await waitForMedia(relay, 'cam');
  }, 30_000);

  afterAll(async () => {
    camera?.kill('SIGKILL');
    await relay?.stop();
  });

  it('serves ffprobe over UDP: codecs and size', async () => {
    const result = await run('ffprobe', [
      '-v',
      'error',
      '-rtsp_transport',
      'udp',
      '-show_entries',
      'stream=codec_name,codec_type,width,height',
      '-of',
      'json',
      relay.rtspUrl('cam'),
    ]);
    expect(result.code).toBe(0);
    const streams = (JSON.parse(result.stdout) as { streams: Array<Record<string, unknown>> }).streams;
    expect(streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });
    expect(streams.find((s) => s.codec_type === 'audio')).toMatchObject({ codec_name: 'aac' });
    await waitFor(async () => ((await udpTasks(relay)).length === 0 ? true : undefined));
  }, 30_000);

  it('decodes 50 frames with ffmpeg over UDP, shows its sockets while it plays and none after', async () => {
    const playing = run(
      'ffmpeg',
      ['-hide_banner', '-rtsp_transport', 'udp', '-i', relay.rtspUrl('cam'), '-map', '0:v', '-frames:v', '50', '-f', 'null', '-'],
      30_000,
    );
    // Two streams, an RTP and an RTCP socket each, plus the session's timer.
    const seen = await waitFor(async () => {
      const lines = await udpTasks(relay);
      const cam = (await (await fetch(`${relay.api}/api/streams?src=cam`)).json()) as { consumers?: Array<{ protocol: string }> };
      const protocols = (cam.consumers ?? []).map((c) => c.protocol);
      return lines.length === 5 && protocols.includes('rtsp+udp') ? lines : undefined;
    });
    expect(seen.filter((line) => line.startsWith('socket #'))).toHaveLength(4);
    const result = await playing;
    expect(result.code).toBe(0);
    const frames = Number([...result.stderr.matchAll(/frame=\s*(\d+)/g)].at(-1)?.[1] ?? 0);
    expect(frames).toBe(50);
    await waitFor(async () => ((await udpTasks(relay)).length === 0 ? true : undefined));
  }, 40_000);

  it('sends RTP with the announced SSRC and sender reports to the client ports; TEARDOWN closes the sockets', async () => {
    const client = new RawRtspClient(relay.rtspPort);
    const ports = await clientPair();
    try {
      const base = relay.rtspUrl('cam?video');
      expect(await client.request('DESCRIBE', base)).toMatch(/^RTSP\/1\.0 200/);
      const setup = await client.request('SETUP', `${base}/trackID=0`, {
        Transport: `RTP/AVP/UDP;unicast;client_port=${ports.rtp.address().port}-${ports.rtcp.address().port}`,
      });
      expect(setup).toMatch(/^RTSP\/1\.0 200/);
      const transport = /Transport: (.+)\r\n/.exec(setup)![1]!;
      const [, serverRtp, serverRtcp, ssrc] = /server_port=(\d+)-(\d+);ssrc=([0-9A-F]{8})$/.exec(transport)!;
      expect(transport.startsWith(`RTP/AVP;unicast;client_port=${ports.rtp.address().port}-${ports.rtcp.address().port};`)).toBe(true);
      expect(Number(serverRtp) % 2).toBe(0);
      expect(Number(serverRtcp)).toBe(Number(serverRtp) + 1);
      expect(setup).toMatch(/Session: [0-9a-f]+;timeout=60/);
      expect(await client.request('PLAY', base)).toMatch(/^RTSP\/1\.0 200/);

      const report = await waitFor(() => ports.rtcpPackets.find((p) => p[1] === 200), 10_000);
      expect(ports.rtpPackets.length).toBeGreaterThan(0);
      expect(ports.rtpPackets.every((p) => p.readUInt32BE(8).toString(16).toUpperCase().padStart(8, '0') === ssrc)).toBe(true);
      expect(report.readUInt32BE(4).toString(16).toUpperCase().padStart(8, '0')).toBe(ssrc);
      const ntpSeconds = report.readUInt32BE(8) - 2_208_988_800;
      expect(Math.abs(ntpSeconds - Date.now() / 1000)).toBeLessThan(5);
      expect(report.readUInt32BE(20)).toBeGreaterThan(0); // packets
      expect(report.readUInt32BE(24)).toBeGreaterThan(report.readUInt32BE(20)); // payload octets
      expect(report[29]).toBe(202); // SDES with the CNAME follows
      // A receiver report from the client is read and ignored.
      ports.rtcp.send(Buffer.from([0x80, 201, 0, 1, 0, 0, 0, 1]), Number(serverRtcp), '127.0.0.1');

      expect(await udpTasks(relay)).toHaveLength(3);
      expect(await client.request('TEARDOWN', base)).toMatch(/^RTSP\/1\.0 200/);
      expect(await udpTasks(relay)).toEqual([]);
    } finally {
      client.close();
      ports.close();
    }
  }, 30_000);

  it('closes the UDP sockets and the viewer when the RTSP connection drops', async () => {
    const client = new RawRtspClient(relay.rtspPort);
    const ports = await clientPair();
    try {
      const base = relay.rtspUrl('cam');
      await client.request('DESCRIBE', base);
      for (const track of [0, 1]) {
        expect(
          await client.request('SETUP', `${base}/trackID=${track}`, {
            Transport: `RTP/AVP;unicast;client_port=${ports.rtp.address().port}-${ports.rtcp.address().port}`,
          }),
        ).toMatch(/^RTSP\/1\.0 200/);
      }
      await client.request('PLAY', base);
      expect(await udpTasks(relay)).toHaveLength(5);
      client.close();
      await waitFor(async () => ((await udpTasks(relay)).length === 0 ? true : undefined));
      const cam = (await (await fetch(`${relay.api}/api/streams?src=cam`)).json()) as { consumers?: unknown[] };
      expect(cam.consumers ?? []).toEqual([]);
    } finally {
      client.close();
      ports.close();
    }
  }, 30_000);

  it('refuses with 461 what would send RTP elsewhere, mixed transports and publishing over UDP', async () => {
    const client = new RawRtspClient(relay.rtspPort);
    try {
      const base = relay.rtspUrl('cam');
      await client.request('DESCRIBE', base);
      const setup = (transport: string, track = 0) => client.request('SETUP', `${base}/trackID=${track}`, { Transport: transport });
      expect(await setup('RTP/AVP;unicast;destination=10.1.2.3;client_port=5000-5001')).toMatch(
        /^RTSP\/1\.0 461[^\r]*\r\n[\s\S]*X-Error: destination 10\.1\.2\.3/,
      );
      expect(await setup('RTP/AVP;multicast;client_port=5000-5001')).toMatch(/^RTSP\/1\.0 461[\s\S]*X-Error: multicast/);
      expect(await setup('RTP/AVP;multicast;destination=224.1.2.3;port=5000-5001')).toMatch(/^RTSP\/1\.0 461/);
      expect(await setup('RTP/AVP;unicast;client_port=0-1')).toMatch(/^RTSP\/1\.0 461/);
      expect(await udpTasks(relay)).toEqual([]);
      // The client's own address as destination is fine.
      expect(await setup('RTP/AVP;unicast;destination=127.0.0.1;client_port=5000-5001')).toMatch(/^RTSP\/1\.0 200/);
      expect(await setup('RTP/AVP/TCP;unicast;interleaved=2-3', 1)).toMatch(
        /^RTSP\/1\.0 461[\s\S]*X-Error: this session already plays over UDP/,
      );
    } finally {
      client.close();
    }
    await waitFor(async () => ((await udpTasks(relay)).length === 0 ? true : undefined));

    // What a user sees publishing with ffmpeg over UDP only (by default ffmpeg then retries over TCP).
    const publish = await run('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=160x120:rate=25:duration=1',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-f',
      'rtsp',
      '-rtsp_transport',
      'udp',
      relay.rtspUrl('other'),
    ]);
    expect(publish.code).not.toBe(0);
    expect(publish.stderr).toContain('461 Unsupported Transport: publish over TCP');
  }, 30_000);

  it('still plays over TCP', async () => {
    const result = await run(
      'ffmpeg',
      ['-hide_banner', '-rtsp_transport', 'tcp', '-i', relay.rtspUrl('cam'), '-map', '0:v', '-frames:v', '25', '-f', 'null', '-'],
      30_000,
    );
    expect(result.code).toBe(0);
    expect(await udpTasks(relay)).toEqual([]);
  }, 30_000);
});

describe('RTSP server: UDP session timeout', () => {
  let relay: RelayUnderTest;
  let camera: ChildProcess;

  beforeAll(async () => {
    relay = await startRelay('  cam:\n');
    camera = publishTestPattern(relay.rtspUrl('cam'), 60);
    await waitForMedia(relay, 'cam');
  }, 30_000);

  afterAll(async () => {
    camera?.kill('SIGKILL');
    await relay?.stop();
  });

  it('keeps a viewer while RTSP requests or RTCP come, and closes it after the timeout of silence', async () => {
    // A second server with a short timeout, pulling the relay's stream as its source.
    const tasks = createTaskRegistry();
    const schemes = createSchemeRegistry();
    schemes.register('rtsp', { dial: dialRtsp });
    const logger = createMemoryLogger('error');
    const streams = createStreamRegistry({ schemes, logger, tasks });
    streams.set('cam', [relay.rtspUrl('cam')]);
    const server = await startRtspServer({
      host: '127.0.0.1',
      port: 0,
      streams,
      tasks,
      logger,
      defaultQuery: 'video',
      udpSessionTimeoutMs: 1_500,
    });
    const client = new RawRtspClient(server.port);
    const ports = await clientPair();
    const udpLines = () =>
      tasks
        .dump()
        .split('\n')
        .filter((line) => line.includes('rtsp udp'));
    try {
      const base = `rtsp://127.0.0.1:${server.port}/cam`;
      expect(await client.request('DESCRIBE', base)).toMatch(/^RTSP\/1\.0 200/);
      const setup = await client.request('SETUP', `${base}/trackID=0`, {
        Transport: `RTP/AVP;unicast;client_port=${ports.rtp.address().port}-${ports.rtcp.address().port}`,
      });
      expect(setup).toMatch(/Session: [0-9a-f]+;timeout=2/);
      const serverRtcp = Number(/server_port=\d+-(\d+)/.exec(setup)![1]);
      await client.request('PLAY', base);
      const closedByServer = new Promise<number>((resolve) => client.socket.once('close', () => resolve(Date.now())));

      // The client keeps the session alive, every 400 ms: over RTSP, then by receiver reports alone.
      for (let i = 0; i < 5; i++) {
        await holdFor(400);
        await client.request('GET_PARAMETER', base);
      }
      for (let i = 0; i < 8; i++) {
        await holdFor(400);
        ports.rtcp.send(Buffer.from([0x80, 201, 0, 1, 0, 0, 0, 1]), serverRtcp, '127.0.0.1'); // a receiver report
      }
      expect(udpLines()).toHaveLength(3); // 5.2 s in, the last 3.2 s on receiver reports alone: still alive
      const before = ports.rtpPackets.length;
      await waitUntil(() => ports.rtpPackets.length > before, { timeout: 2_000, what: 'more RTP' });
      expect(ports.rtpPackets.length).toBeGreaterThan(before);

      const silentSince = Date.now();
      const closedAt = await closedByServer;
      expect(closedAt - silentSince).toBeGreaterThanOrEqual(1_000);
      expect(udpLines()).toEqual([]);
      expect(streams.get('cam')!.consumerCount).toBe(0);
    } finally {
      client.close();
      ports.close();
      await server.close();
      streams.close();
    }
    await waitFor(() => (tasks.count() === 0 ? true : undefined));
  }, 30_000);
});
