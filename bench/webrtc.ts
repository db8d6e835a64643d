// WebRTC out of the relay, on a running 720p H264 camera (ffmpeg publishing into the relay):
//  1. offer to first decoded frame in Chromium (median of N runs): WHEP, next to the MSE mode of
//     go2rtc's WebSocket API in the same page (the other low-delay output browsers use);
//  2. relay CPU and RSS with 1, 10 and 25 WebRTC viewers (werift peers in this process, so the
//     browser's decoding does not load the machine), next to the same counts of RTSP viewers.
//
//   npm run bench:webrtc [-- --runs 5 --viewers 1,10,25 --seconds 10]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { RTCPeerConnection as WeriftPeerConnection } from 'werift';
import { buildMain } from '../scripts/build.mjs';
import { cpuSeconds, rssMiB } from './process-stats';
import { dialRtsp } from '../src-main/relay/protocols/rtsp/rtsp-client';
import { codecParameters } from '../src-main/relay/protocols/webrtc/peer-helpers';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    viewers: { type: 'string', default: '1,10,25' },
    seconds: { type: 'string', default: '10' },
  },
});
const runs = Number(values.runs);
const counts = values.viewers.split(',').map(Number);
const seconds = Number(values.seconds);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Chromium: ms from creating the offer (or opening the socket) to the first decoded frame presented. */
async function firstFrames(api: string): Promise<{ whep: number[]; mse: number[] }> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'],
  });
  const page = await browser.newPage();
  await page.goto(`${api}/api`);
  const whep: number[] = [];
  const mse: number[] = [];
  for (let run = 0; run < runs; run++) {
    whep.push(
      await page.evaluate(async (url) => {
        const start = performance.now();
        const pc = new RTCPeerConnection();
        pc.addTransceiver('video', { direction: 'recvonly' });
        const video = document.createElement('video');
        video.muted = true;
        video.autoplay = true;
        document.body.append(video);
        const shown = new Promise<number>((resolve) => video.requestVideoFrameCallback(() => resolve(performance.now() - start)));
        pc.ontrack = (event) => (video.srcObject = new MediaStream([event.track]));
        await pc.setLocalDescription(await pc.createOffer());
        await new Promise<void>((resolve) =>
          pc.iceGatheringState === 'complete'
            ? resolve()
            : pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve()),
        );
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/sdp' },
          body: pc.localDescription!.sdp,
        });
        await pc.setRemoteDescription({ type: 'answer', sdp: await response.text() });
        const ms = await shown;
        pc.close();
        video.remove();
        return ms;
      }, `${api}/api/webrtc?src=cam`),
    );
    mse.push(
      await page.evaluate(
        async (url) => {
          const start = performance.now();
          const video = document.createElement('video');
          video.muted = true;
          video.autoplay = true;
          document.body.append(video);
          const shown = new Promise<number>((resolve) => video.requestVideoFrameCallback(() => resolve(performance.now() - start)));
          const source = new MediaSource();
          video.src = URL.createObjectURL(source);
          await new Promise((resolve) => source.addEventListener('sourceopen', resolve, { once: true }));
          const ws = new WebSocket(url);
          ws.binaryType = 'arraybuffer';
          let buffer: SourceBuffer | undefined;
          const queue: ArrayBuffer[] = [];
          const pump = () => buffer && !buffer.updating && queue.length > 0 && buffer.appendBuffer(queue.shift()!);
          ws.onopen = () => ws.send(JSON.stringify({ type: 'mse', value: 'avc1.640029,avc1.64002A,avc1.640033,mp4a.40.2' }));
          ws.onmessage = (event) => {
            if (typeof event.data === 'string') {
              const message = JSON.parse(event.data) as { type: string; value: string };
              if (message.type === 'mse') {
                buffer = source.addSourceBuffer(message.value);
                buffer.addEventListener('updateend', pump);
              }
              return;
            }
            queue.push(event.data as ArrayBuffer);
            pump();
          };
          const ms = await shown;
          ws.close();
          video.remove();
          return ms;
        },
        `${api.replace('http', 'ws')}/api/ws?src=cam`,
      ),
    );
    await sleep(500);
  }
  await browser.close();
  return { whep, mse };
}

/** A werift viewer of the stream over WHEP, as a browser's peer connection would be. */
async function webrtcViewer(api: string): Promise<() => Promise<void>> {
  const pc = new WeriftPeerConnection({
    codecs: {
      video: [
        codecParameters(
          {
            name: 'H264',
            clockRate: 90000,
            payloadType: 102,
            fmtp: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f',
          },
          'video',
        ),
      ],
      audio: [],
    },
    iceUseIpv6: false,
    iceAdditionalHostAddresses: ['127.0.0.1'],
  });
  pc.addTransceiver('video', { direction: 'recvonly' });
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise<void>((resolve) =>
    pc.iceGatheringState === 'complete' ? resolve() : pc.iceGatheringStateChange.subscribe((s) => s === 'complete' && resolve()),
  );
  const response = await fetch(`${api}/api/webrtc?src=cam`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/sdp' },
    body: pc.localDescription!.sdp,
  });
  if (response.status !== 201) throw new Error(`WHEP answered ${response.status}: ${await response.text()}`);
  await pc.setRemoteDescription({ type: 'answer', sdp: await response.text() });
  const location = new URL(response.headers.get('location')!, `${api}/api/webrtc`);
  return async () => {
    await fetch(location, { method: 'DELETE' });
    await pc.close();
  };
}

async function rtspViewer(rtspPort: number, index: number): Promise<() => Promise<void>> {
  const abort = new AbortController();
  const viewer = await dialRtsp(`rtsp://127.0.0.1:${rtspPort}/cam`, { signal: abort.signal, streamName: `viewer${index}` });
  viewer.start(() => undefined);
  return async () => {
    abort.abort();
    viewer.close();
  };
}

async function measure(
  pid: number,
  api: string,
  open: (i: number) => Promise<() => Promise<void>>,
  n: number,
): Promise<{ cpu: number; rss: number; bytes: number }> {
  const closers: Array<() => Promise<void>> = [];
  for (let i = 0; i < n; i++) closers.push(await open(i));
  await sleep(3_000);
  const cpu0 = cpuSeconds(pid);
  const streams0 = (await (await fetch(`${api}/api/streams?src=cam`)).json()) as { consumers: Array<{ bytes_send?: number }> };
  await sleep(seconds * 1000);
  const cpu = (cpuSeconds(pid) - cpu0) * (60 / seconds);
  const rss = rssMiB(pid);
  const streams = (await (await fetch(`${api}/api/streams?src=cam`)).json()) as { consumers: Array<{ bytes_send?: number }> };
  const sent = (list: typeof streams) => list.consumers.reduce((sum, c) => sum + (c.bytes_send ?? 0), 0);
  await Promise.all(closers.map((close) => close()));
  await sleep(2_000);
  return { cpu, rss, bytes: (sent(streams) - sent(streams0)) / seconds };
}

async function main(): Promise<void> {
  await buildMain();
  const dir = await mkdtemp(join(tmpdir(), 'rc-bench-webrtc-'));
  const config = join(dir, 'relay.yaml');
  await writeFile(
    config,
    `data_dir: ./data\napi:\n  listen: 127.0.0.1:0\nrtsp:\n  listen: 127.0.0.1:0\nwebrtc:\n  listen: 127.0.0.1:0\nlog:\n  level: error\nstorage:\n  emulator:\n    enabled: false\nstreams:\n  cam:\n`,
  );
  const relay: ChildProcess = spawn(process.execPath, ['dist/main/headless.js', '--config', config], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const api = await new Promise<string>((resolve) =>
    relay.stdout!.on(
      'data',
      (d: Buffer) => /at (http:\/\/\S+)\//.exec(d.toString())?.[1] && resolve(/at (http:\/\/\S+)\//.exec(d.toString())![1]!),
    ),
  );
  const info = (await (await fetch(`${api}/api`)).json()) as { rtsp: { listen: string } };
  const rtspPort = Number(info.rtsp.listen.split(':').pop());
  const camera = spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-re',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=1280x720:rate=25',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-tune',
      'zerolatency',
      '-b:v',
      '2M',
      '-maxrate',
      '2M',
      '-bufsize',
      '1M',
      '-g',
      '50',
      '-pix_fmt',
      'yuv420p',
      '-f',
      'rtsp',
      '-rtsp_transport',
      'tcp',
      `rtsp://127.0.0.1:${rtspPort}/cam`,
    ],
    { stdio: 'ignore' },
  );
  await sleep(3_000);

  const frames = await firstFrames(api);
  const rows: string[] = [];
  for (const n of counts) {
    const webrtc = await measure(relay.pid!, api, () => webrtcViewer(api), n);
    const rtsp = await measure(relay.pid!, api, (i) => rtspViewer(rtspPort, i), n);
    const cells = (r: typeof webrtc) => [
      r.cpu.toFixed(2).padStart(10),
      r.rss.toFixed(1).padStart(8),
      (r.bytes * 8e-6).toFixed(1).padStart(9),
    ];
    rows.push([String(n).padStart(7), ...cells(webrtc), ...cells(rtsp)].join(' '));
  }

  const ms = (list: number[]) => `${median(list).toFixed(0)} ms (runs: ${list.map((v) => v.toFixed(0)).join(', ')})`;
  console.log(
    `\nWebRTC from the relay: one 1280x720 H264 camera at 2 Mbit/s (relay in its own process, ${process.platform}, ${cpus().length} cores)\n`,
  );
  console.log(`offer to first decoded frame in Chromium, median of ${runs}:`);
  console.log(`  WHEP (WebRTC)   ${ms(frames.whep)}`);
  console.log(`  /api/ws MSE     ${ms(frames.mse)}`);
  console.log(`\nrelay per viewer count, ${seconds} s measured per row (CPU in s/min, RSS in MiB, sent in Mbit/s):`);
  console.log('viewers  webrtc CPU   RSS   sent      rtsp CPU   RSS   sent');
  for (const row of rows) console.log(row);

  camera.kill('SIGKILL');
  relay.kill('SIGTERM');
  await new Promise((r) => relay.once('exit', r));
  await rm(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
