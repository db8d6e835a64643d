// One 720p H264 camera (~2 Mbit/s, made by ffmpeg) fanned out by the relay to N RTSP viewers.
// Prints, per N: relay CPU seconds per minute, relay RSS, dropped packets, and the latency the
// relay adds (p50/p99), measured per RTP packet from the moment this script hands it to the
// relay until a viewer receives it.
//
//   npm run bench:relay-fanout [-- --clients 1,10,50,100 --seconds 15]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildMain } from '../scripts/build.mjs';
import { cpuSeconds, rssMiB } from './process-stats';
import { createMemoryLogger } from '../src-main/platform/logger';
import { createStreamRegistry } from '../src-main/relay/core/stream-registry';
import { createSchemeRegistry } from '../src-main/relay/core/scheme-registry';
import { createTaskRegistry } from '../src-main/relay/core/task-registry';
import { serializeRtpPacket, type RtpPacket } from '../src-main/relay/core/rtp-packet';
import { dialRtsp } from '../src-main/relay/rtsp/rtsp-client';
import { startRtspServer } from '../src-main/relay/rtsp/rtsp-server';
import { buildSdp } from '../src-main/relay/rtsp/sdp';
import { interleavedFrame } from '../src-main/relay/rtsp/rtsp-parser';

const { values } = parseArgs({ options: { clients: { type: 'string', default: '1,10,50,100' }, seconds: { type: 'string', default: '15' } } });
const counts = values.clients.split(',').map(Number);
const seconds = Number(values.seconds);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function rtspRequest(socket: Socket, lines: string[], body = ''): Promise<string> {
  return new Promise((resolve) => {
    socket.once('data', (d) => resolve(d.toString()));
    socket.write(lines.join('\r\n') + (body ? `\r\nContent-Length: ${Buffer.byteLength(body)}` : '') + '\r\n\r\n' + body);
  });
}

async function main(): Promise<void> {
  await buildMain();
  const dir = await mkdtemp(join(tmpdir(), 'rc-bench-fanout-'));
  const config = join(dir, 'relay.yaml');
  await writeFile(config, `data_dir: ./data\napi:\n  listen: 127.0.0.1:0\nrtsp:\n  listen: 127.0.0.1:0\nlog:\n  level: error\nstorage:\n  emulator:\n    enabled: false\nstreams:\n  cam:\n`);
  const relay: ChildProcess = spawn(process.execPath, ['dist/main/headless.js', '--config', config], { stdio: ['ignore', 'pipe', 'inherit'] });
  const apiUrl = await new Promise<string>((resolve) => relay.stdout!.on('data', (d: Buffer) => /at (http:\/\/\S+)\//.exec(d.toString())?.[1] && resolve(/at (http:\/\/\S+)\//.exec(d.toString())![1]!)));
  const info = (await (await fetch(`${apiUrl}/api`)).json()) as { rtsp: { listen: string } };
  const rtspPort = Number(info.rtsp.listen.split(':').pop());

  // The camera: ffmpeg publishes into a tap in this process, which forwards every packet to the
  // relay and notes when it did, so the relay's own delay can be measured per packet.
  const logger = createMemoryLogger('error');
  const tasks = createTaskRegistry();
  const tapStreams = createStreamRegistry({ schemes: createSchemeRegistry(), logger, tasks });
  const tap = await startRtspServer({ host: '127.0.0.1', port: 0, streams: tapStreams, tasks, logger, defaultQuery: 'video' });
  const published = tap.expectPublish('camera', 20_000);
  const camera = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25', '-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-b:v', '2M', '-maxrate', '2M', '-bufsize', '1M', '-g', '50', '-pix_fmt', 'yuv420p', '-f', 'rtsp', '-rtsp_transport', 'tcp', `rtsp://127.0.0.1:${tap.port}/camera`], { stdio: 'ignore' });
  const source = await published;

  const upstream = connect(rtspPort, '127.0.0.1');
  await new Promise((r) => upstream.once('connect', r));
  const sdp = buildSdp(source.medias.map((m) => ({ kind: m.kind, codec: m.codecs[0]! })), { sessionName: 'bench' });
  const target = `rtsp://127.0.0.1:${rtspPort}/cam`;
  await rtspRequest(upstream, [`ANNOUNCE ${target} RTSP/1.0`, 'CSeq: 1', 'Content-Type: application/sdp'], sdp);
  await rtspRequest(upstream, [`SETUP ${target}/trackID=0 RTSP/1.0`, 'CSeq: 2', 'Transport: RTP/AVP/TCP;unicast;interleaved=0-1;mode=record']);
  await rtspRequest(upstream, [`RECORD ${target} RTSP/1.0`, 'CSeq: 3']);
  const sentAt = new Map<number, number>();
  let bitsSent = 0;
  source.start((index, packet: RtpPacket) => {
    if (index !== 0) return;
    sentAt.set(packet.sequenceNumber, performance.now());
    if (sentAt.size > 20_000) sentAt.delete(sentAt.keys().next().value!);
    bitsSent += packet.payload.length * 8;
    upstream.write(interleavedFrame(0, serializeRtpPacket(packet)));
  });
  await sleep(2_000);

  const rows: string[] = [];
  for (const n of counts) {
    const controllers = Array.from({ length: n }, () => new AbortController());
    const latencies: number[] = [];
    let measuring = false;
    const viewers = await Promise.all(
      controllers.map(async (c, i) => {
        const viewer = await dialRtsp(`rtsp://127.0.0.1:${rtspPort}/cam`, { signal: c.signal, streamName: `viewer${i}` });
        viewer.start((_index, packet) => {
          const sent = sentAt.get(packet.sequenceNumber);
          if (measuring && sent !== undefined && i % Math.max(1, Math.floor(n / 10)) === 0) latencies.push(performance.now() - sent);
        });
        return viewer;
      }),
    );
    await sleep(3_000);
    const cpu0 = cpuSeconds(relay.pid!);
    const bits0 = bitsSent;
    measuring = true;
    await sleep(seconds * 1000);
    measuring = false;
    const cpu = cpuSeconds(relay.pid!) - cpu0;
    const bitrate = (bitsSent - bits0) / seconds / 1e6;
    const streams = (await (await fetch(`${apiUrl}/api/streams?src=cam`)).json()) as { consumers: Array<{ senders: Array<{ drops: number }> }> };
    const drops = streams.consumers.reduce((sum, c) => sum + c.senders.reduce((s, x) => s + x.drops, 0), 0);
    latencies.sort((a, b) => a - b);
    rows.push(
      [String(n).padStart(7), (cpu * (60 / seconds)).toFixed(2).padStart(12), rssMiB(relay.pid!).toFixed(1).padStart(9), String(drops).padStart(7), percentile(latencies, 50).toFixed(2).padStart(9), percentile(latencies, 99).toFixed(2).padStart(9), bitrate.toFixed(2).padStart(9)].join(' '),
    );
    for (const viewer of viewers) viewer.close();
    await sleep(1_000);
  }

  console.log(`\nrelay fan-out: one 1280x720 H264 camera, RTSP/TCP viewers, ${seconds} s measured per row (relay in its own process, ${process.platform}, ${(await import('node:os')).cpus().length} cores)\n`);
  console.log('viewers  CPU s/min   RSS MiB   drops  lat p50ms  lat p99ms  cam Mbit/s');
  for (const row of rows) console.log(row);

  camera.kill('SIGKILL');
  source.close();
  upstream.destroy();
  await tap.close();
  relay.kill('SIGTERM');
  await new Promise((r) => relay.once('exit', r));
  await rm(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
