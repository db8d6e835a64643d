// One 720p H264 camera (~2 Mbit/s: a clip ffmpeg encodes first, then sends in real time) fanned out to N light RTSP viewers (TCP, or UDP with --transport udp), by
// the relay and, in the same run, by GStreamer's RTSP server relaying the same camera (the peer:
// C, shared media). Prints per N: CPU (% of one core) and RSS of each, the ratio, viewers
// served, packets lost, and the delay the relay adds (p50/p99), measured per RTP packet from
// the moment this script hands it to the relay until a viewer process receives it; and, for
// both servers, the delay of whole pictures (p50/p99), from a picture's last packet going in to
// a viewer having it (GStreamer renumbers packets, so pictures are matched by timestamp).
//
//   npm run bench:relay-fanout [-- --clients 1,10,50,100,200 --seconds 15 --transport tcp|udp --rounds 3]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { startBenchEngine } from './lib/engine';
import { pictureDelays } from './lib/picture-delays';
import { median, percentile, runViewerProcess, type ViewerRun } from './lib/viewer-run';
import { createMemoryLogger } from '../src-main/platform/logger';
import { createStreamRegistry } from '../src-main/relay/core/stream-registry';
import { createSchemeRegistry } from '../src-main/relay/core/scheme-registry';
import { createTaskRegistry } from '../src-main/relay/core/task-registry';
import { serializeRtpPacket, type RtpPacket } from '../src-main/relay/core/rtp-packet';
import { startRtspServer } from '../src-main/relay/protocols/rtsp/rtsp-server';
import { buildSdp } from '../src-main/relay/protocols/rtsp/sdp';
import { interleavedFrame } from '../src-main/relay/protocols/rtsp/rtsp-parser';
import { encodeCameraClip, publishLoopedClip } from './lib/looped-clip';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '1,10,50,100,200' },
    seconds: { type: 'string', default: '15' },
    transport: { type: 'string', default: 'tcp' },
    rounds: { type: 'string', default: '1' },
  },
});
if (values.transport !== 'tcp' && values.transport !== 'udp') throw new Error('--transport is tcp or udp');
const transport = values.transport;
const counts = values.clients.split(',').map(Number);
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds is a whole number of at least 1');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const wallNow = () => performance.timeOrigin + performance.now();

/** Child processes to kill however the run ends (an orphaned relay would hold the terminal's pipe). */
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

async function rtspRequest(socket: Socket, lines: string[], body = ''): Promise<string> {
  return new Promise((resolve) => {
    socket.once('data', (d) => resolve(d.toString()));
    socket.write(lines.join('\r\n') + (body ? `\r\nContent-Length: ${Buffer.byteLength(body)}` : '') + '\r\n\r\n' + body);
  });
}

/** A line of a child's stdout that matches, as soon as it is printed. */
function lineOf(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const match = pattern.exec(line);
      if (match) {
        lines.close();
        resolve(match);
      }
    });
    child.once('exit', (code) => reject(new Error(`${child.spawnfile} exited (${code}) before printing ${pattern}`)));
  });
}

/**
 * N viewers against `url`: up to 10 in a light process that notes arrival times (so the delay
 * measured is the server's, not a busy reader's), the rest in another that only reads. The
 * server's CPU is taken over the busy process's measured window.
 */
async function runViewers(url: string, n: number, serverPid: number): Promise<ViewerRun> {
  const sampled = Math.min(n, 10);
  const [probe, bulk] = await Promise.all([
    runViewerProcess({ url, count: sampled, sample: sampled, seconds, transport, serverPid, children }),
    n > sampled ? runViewerProcess({ url, count: n - sampled, sample: 0, seconds, transport, serverPid, children }) : undefined,
  ]);
  if (!bulk) return probe;
  return {
    ...bulk,
    served: probe.served + bulk.served,
    gaps: probe.gaps + bulk.gaps,
    arrivals: probe.arrivals,
    pictures: probe.pictures,
    failed: [...probe.failed, ...bulk.failed],
  };
}

async function main(): Promise<void> {
  // Started as `npm start` starts it; RELAY_NODE_FLAGS adds more (--cpu-prof --cpu-prof-dir=/tmp/prof).
  const engine = await startBenchEngine({ flags: process.env.RELAY_NODE_FLAGS?.split(' ').filter(Boolean) });
  const relay = engine.process;
  children.push(relay);
  const apiUrl = engine.api;
  const target = engine.rtspUrl('cam');
  const rtspPort = Number(new URL(target).port);
  const dir = await mkdtemp(join(tmpdir(), 'rc-bench-fanout-'));

  // The camera: ffmpeg publishes into a tap in this process, which forwards every packet to the
  // relay and notes when it did, so the relay's own delay can be measured per packet. The peer
  // pulls the same camera from the tap.
  const logger = createMemoryLogger('error');
  const tasks = createTaskRegistry();
  const tapStreams = createStreamRegistry({ schemes: createSchemeRegistry(), logger, tasks });
  const tap = await startRtspServer({ host: '127.0.0.1', port: 0, streams: tapStreams, tasks, logger, defaultQuery: 'video' });
  // The peer plays `peer` on the tap: a copy of the camera this script pushes there too.
  tapStreams.set('peer', []);
  const published = tap.expectPublish('camera', 20_000);
  // Encoded once beforehand and sent as is, looped: an encoder running beside the two servers
  // would take most of a core and blur both servers' figures (and the delays measured).
  const clip = await encodeCameraClip(dir);
  const camera = publishLoopedClip(clip, `rtsp://127.0.0.1:${tap.port}/camera`);
  children.push(camera);
  const source = await published;

  const sdp = buildSdp(
    source.medias.map((m) => ({ kind: m.kind, codec: m.codecs[0]! })),
    { sessionName: 'bench' },
  );
  /** Publishes into `target` (ANNOUNCE, SETUP, RECORD over TCP) and returns the socket to write frames on. */
  const publishTo = async (port: number, target: string): Promise<Socket> => {
    const socket = connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    await new Promise((r) => socket.once('connect', r));
    await rtspRequest(socket, [`ANNOUNCE ${target} RTSP/1.0`, 'CSeq: 1', 'Content-Type: application/sdp'], sdp);
    await rtspRequest(socket, [
      `SETUP ${target}/trackID=0 RTSP/1.0`,
      'CSeq: 2',
      'Transport: RTP/AVP/TCP;unicast;interleaved=0-1;mode=record',
    ]);
    await rtspRequest(socket, [`RECORD ${target} RTSP/1.0`, 'CSeq: 3']);
    return socket;
  };
  const upstream = await publishTo(rtspPort, target);
  const toPeer = await publishTo(tap.port, `rtsp://127.0.0.1:${tap.port}/peer`);
  const sentAt = new Map<number, number>();
  /** Each picture's RTP timestamp and when its last packet went to the servers. */
  const pictureSentAt = new Map<number, number>();
  let bitsSent = 0;
  source.start((index, packet: RtpPacket) => {
    if (index !== 0) return;
    const at = wallNow();
    sentAt.set(packet.sequenceNumber, at);
    if (sentAt.size > 30_000) sentAt.delete(sentAt.keys().next().value!);
    if (packet.marker) pictureSentAt.set(packet.timestamp, at);
    if (pictureSentAt.size > 30_000) pictureSentAt.delete(pictureSentAt.keys().next().value!);
    bitsSent += packet.payload.length * 8;
    const frame = interleavedFrame(0, serializeRtpPacket(packet));
    upstream.write(frame);
    toPeer.write(frame);
  });

  const peer = spawn('/usr/bin/python3', ['bench/peers/gst-rtsp-relay.py', '--camera', `rtsp://127.0.0.1:${tap.port}/peer`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(peer);
  const peerPort = Number((await lineOf(peer, /^PORT (\d+)/))[1]);
  await sleep(2_000);

  const rows: string[] = [];
  const started = performance.now();
  const bits0 = bitsSent;
  for (const n of counts) {
    // Ours then the peer's, `rounds` times: this shared machine's CPU figures drift by a third
    // between minutes, so each row shows the median of windows taken turn about.
    const ourRuns: ViewerRun[] = [];
    const theirRuns: ViewerRun[] = [];
    const latencies: number[] = [];
    const ourPictures: number[] = [];
    const theirPictures: number[] = [];
    let drops = 0;
    for (let round = 0; round < rounds; round++) {
      const ours = await runViewers(target, n, relay.pid!);
      const streams = (await (await fetch(`${apiUrl}/api/streams?src=cam`)).json()) as {
        consumers?: Array<{ senders?: Array<{ drops: number }> }>;
      };
      drops += (streams.consumers ?? []).reduce((sum, c) => sum + (c.senders ?? []).reduce((s, x) => s + x.drops, 0), 0);
      for (const arrivals of ours.arrivals) {
        for (let i = 0; i < arrivals.length; i += 2) {
          const sent = sentAt.get(arrivals[i]!);
          if (sent !== undefined) latencies.push(arrivals[i + 1]! - sent);
        }
      }
      await sleep(1_000);
      const theirs = await runViewers(`rtsp://127.0.0.1:${peerPort}/cam`, n, peer.pid!);
      await sleep(1_000);
      for (const pictures of ours.pictures) ourPictures.push(...pictureDelays(pictureSentAt, pictures));
      for (const pictures of theirs.pictures) theirPictures.push(...pictureDelays(pictureSentAt, pictures));
      ourRuns.push(ours);
      theirRuns.push(theirs);
      for (const failure of [...ours.failed, ...theirs.failed]) console.error(`viewer failed: ${failure}`);
    }
    for (const delays of [latencies, ourPictures, theirPictures]) delays.sort((a, b) => a - b);
    const ourCpu = median(ourRuns.map((r) => r.cpuPercent));
    const theirCpu = median(theirRuns.map((r) => r.cpuPercent));
    rows.push(
      [
        String(n).padStart(7),
        `${ourCpu.toFixed(1)} %`.padStart(9),
        `${theirCpu.toFixed(1)} %`.padStart(9),
        (ourCpu / theirCpu).toFixed(2).padStart(6),
        Math.max(...ourRuns.map((r) => r.rss))
          .toFixed(0)
          .padStart(8),
        Math.max(...theirRuns.map((r) => r.rss))
          .toFixed(0)
          .padStart(8),
        `${Math.min(...ourRuns.map((r) => r.served))}/${Math.min(...theirRuns.map((r) => r.served))}`.padStart(9),
        `${drops + ourRuns.reduce((sum, r) => sum + r.gaps, 0)}/${theirRuns.reduce((sum, r) => sum + r.gaps, 0)}`.padStart(9),
        percentile(latencies, 50).toFixed(2).padStart(8),
        percentile(latencies, 99).toFixed(2).padStart(8),
        `${percentile(ourPictures, 50).toFixed(1)}/${percentile(theirPictures, 50).toFixed(1)}`.padStart(11),
        `${percentile(ourPictures, 99).toFixed(1)}/${percentile(theirPictures, 99).toFixed(1)}`.padStart(11),
        median(ourRuns.map((r) => r.writesPerSecond))
          .toFixed(0)
          .padStart(9),
      ].join(' '),
    );
  }
  const bitrate = (bitsSent - bits0) / ((performance.now() - started) / 1000) / 1e6;

  console.log(
    `\nrelay fan-out: one 1280x720 H264 camera at ${bitrate.toFixed(2)} Mbit/s, RTSP/${transport.toUpperCase()} viewers in their own process, ${seconds} s measured per row; ${process.platform}, ${cpus().length} cores, ${cpus()[0]?.model ?? ''}`,
  );
  console.log(
    `peer: GStreamer RTSP server (gst-rtsp-server, shared media relaying the same camera), measured right after ours, ${rounds} time(s) a row: CPU is the median window, RSS the largest, served the fewest, lost the sum, delay over all windows\n`,
  );
  console.log(
    'viewers  CPU ours  CPU peer  ratio  RSS ours  RSS peer  served o/p  lost o/p  lat p50  lat p99 (ms, ours, per packet)  picture p50 o/p  picture p99 o/p (ms)  writes/s (ours)',
  );
  for (const row of rows) console.log(row);
  console.log(
    'writes/s: write and writev system calls (/proc/<pid>/io); a picture the native writer sends straight into the kernel (relay/native/stream-write.c, `send`) is not among them',
  );

  camera.kill('SIGKILL');
  peer.kill('SIGKILL');
  source.close();
  upstream.destroy();
  toPeer.destroy();
  await tap.close();
  await engine.stop();
  await rm(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
