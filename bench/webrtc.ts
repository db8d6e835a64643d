// WebRTC out of the relay, on a 720p H264 camera (a clip encoded once, sent as is and looped by
// ffmpeg into the relay, so no encoder competes with the relay for the cores):
//  1. offer to first decoded frame in Chromium (median of N runs): WHEP, next to the MSE mode of
//     go2rtc's WebSocket API in the same page (the other low-delay output browsers use);
//  2. relay CPU and RSS with 1, 10 and 25 WebRTC viewers (werift peers in this process, so the
//     browser's decoding does not load the machine), next to the same counts of RTSP viewers
//     (TCP) of the same camera in the same run, and the ratio of the two; `--rounds N` measures
//     each row N times, WebRTC and RTSP turn about, and prints the medians. Goal: the ratio at 25
//     viewers at most 2.0.
//
//     The relay answers both Chromium and the werift viewers as DTLS server and picks the SRTP
//     profile from what they offer: AES-GCM with the native addon (the bench prints what each
//     side got). `--srtp cm` makes the werift viewers offer AES-CM alone, as an endpoint without
//     AES-GCM would, which costs the relay more.
//
//   npm run bench:webrtc [-- --runs 5 --viewers 1,10,25 --seconds 10 --rounds 3 --srtp any|cm]
//   RELAY_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the relay's process.
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { RTCPeerConnection as WeriftPeerConnection } from 'werift';
import { readFileSync } from 'node:fs';
import { cpuSeconds, rssMiB } from './process-stats';
import { startBenchEngine } from './lib/engine';
import { dialRtsp } from '../src-main/relay/protocols/rtsp/rtsp-client';
import { codecParameters } from '../src-main/relay/protocols/webrtc/peer-helpers';
import { encodeCameraClip, publishLoopedClip } from './lib/looped-clip';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    viewers: { type: 'string', default: '1,10,25' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '1' },
    srtp: { type: 'string', default: 'any' },
  },
});
if (values.srtp !== 'any' && values.srtp !== 'cm') throw new Error('--srtp is any (what werift offers) or cm (AES-CM alone)');
/** AES_CM_128_HMAC_SHA1_80's number in DTLS-SRTP (RFC 5764). */
const SRTP_AES128_CM_HMAC_SHA1_80 = 0x0001;
/** The DTLS-SRTP profiles by number (RFC 5764, RFC 7714), as the bench names what viewers got. */
const SRTP_PROFILE_NAMES: Record<number, string> = { 0x0001: 'AES_CM_128_HMAC_SHA1_80', 0x0007: 'AEAD_AES_128_GCM' };
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds is a whole number of at least 1');
const runs = Number(values.runs);
const counts = values.viewers.split(',').map(Number);
const seconds = Number(values.seconds);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Where a WHEP start's time went, ms from creating the offer: offer sent, answered, ICE up, DTLS up, first frame. */
type WhepPhases = [offered: number, answered: number, ice: number, dtls: number, frame: number];

/** Chromium: ms from creating the offer (or opening the socket) to the first decoded frame presented. */
async function firstFrames(api: string): Promise<{ whep: WhepPhases[]; mse: number[]; ciphers: Set<string> }> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'],
  });
  const page = await browser.newPage();
  await page.goto(`${api}/api`);
  const whep: WhepPhases[] = [];
  const mse: number[] = [];
  const ciphers = new Set<string>();
  for (let run = 0; run < runs; run++) {
    const [phases, cipher] = await page.evaluate(async (url) => {
      const start = performance.now();
      const at = () => performance.now() - start;
      const pc = new RTCPeerConnection();
      pc.addTransceiver('video', { direction: 'recvonly' });
      let ice = NaN;
      let dtls = NaN;
      pc.addEventListener('iceconnectionstatechange', () => pc.iceConnectionState === 'connected' && (ice = at()));
      pc.addEventListener('connectionstatechange', () => pc.connectionState === 'connected' && (dtls = at()));
      const video = document.createElement('video');
      video.muted = true;
      video.autoplay = true;
      document.body.append(video);
      const shown = new Promise<number>((resolve) => video.requestVideoFrameCallback(() => resolve(at())));
      pc.ontrack = (event) => (video.srcObject = new MediaStream([event.track]));
      await pc.setLocalDescription(await pc.createOffer());
      // As the console's player does: the offer at once, with what is gathered so far; the relay
      // answers as ICE lite on its shared port and learns the browser's address from its checks.
      const offered = at();
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/sdp' },
        body: pc.localDescription!.sdp,
      });
      const answer = await response.text();
      const answered = at();
      await pc.setRemoteDescription({ type: 'answer', sdp: answer });
      const frame = await shown;
      let cipher = '';
      (await pc.getStats()).forEach((report: { type: string; srtpCipher?: string }) => {
        if (report.type === 'transport') cipher = report.srtpCipher ?? '';
      });
      pc.close();
      video.remove();
      return [[offered, answered, ice, dtls, frame] as WhepPhases, cipher] as const;
    }, `${api}/api/webrtc?src=cam`);
    whep.push(phases);
    ciphers.add(cipher);
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
  return { whep, mse, ciphers };
}

/**
 * A werift viewer of the stream over WHEP, as a browser's peer connection would be; `profiles`
 * gets the SRTP profile it ended up with when it is closed.
 */
async function webrtcViewer(api: string, profiles: Set<string>): Promise<() => Promise<void>> {
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
  const video = pc.addTransceiver('video', { direction: 'recvonly' });
  await pc.setLocalDescription(await pc.createOffer());
  // An endpoint without AES-GCM: werift keeps its list private and reads it when the handshake starts.
  if (values.srtp === 'cm') (video.dtlsTransport as unknown as { srtpProfiles: number[] }).srtpProfiles = [SRTP_AES128_CM_HMAC_SHA1_80];
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
    const transport = video.dtlsTransport;
    const profile = transport.srtpStarted ? transport.srtp.config.profile : undefined;
    profiles.add(profile === undefined ? 'none (not connected)' : (SRTP_PROFILE_NAMES[profile] ?? `profile ${profile}`));
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

interface Window {
  cpu: number;
  /** The share of `cpu` spent in the kernel (for WebRTC mostly a system call per datagram sent). */
  kernel: number;
  rss: number;
  bytes: number;
}

/** A process's CPU time in the kernel, in seconds (Linux). */
function systemSeconds(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[12]) / 100;
}

async function measure(pid: number, api: string, open: (i: number) => Promise<() => Promise<void>>, n: number): Promise<Window> {
  const closers: Array<() => Promise<void>> = [];
  for (let i = 0; i < n; i++) closers.push(await open(i));
  await sleep(3_000);
  const cpu0 = cpuSeconds(pid);
  const system0 = systemSeconds(pid);
  const streams0 = (await (await fetch(`${api}/api/streams?src=cam`)).json()) as { consumers: Array<{ bytes_send?: number }> };
  await sleep(seconds * 1000);
  const used = cpuSeconds(pid) - cpu0;
  const cpu = used * (60 / seconds);
  const kernel = used > 0 ? (systemSeconds(pid) - system0) / used : 0;
  const rss = rssMiB(pid);
  const streams = (await (await fetch(`${api}/api/streams?src=cam`)).json()) as { consumers: Array<{ bytes_send?: number }> };
  const sent = (list: typeof streams) => list.consumers.reduce((sum, c) => sum + (c.bytes_send ?? 0), 0);
  await Promise.all(closers.map((close) => close()));
  await sleep(2_000);
  return { cpu, kernel, rss, bytes: (sent(streams) - sent(streams0)) / seconds };
}

/** The median of each measure over the rounds (RSS: the largest). */
const medianWindow = (windows: Window[]): Window => ({
  cpu: median(windows.map((w) => w.cpu)),
  kernel: median(windows.map((w) => w.kernel)),
  rss: Math.max(...windows.map((w) => w.rss)),
  bytes: median(windows.map((w) => w.bytes)),
});

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'rc-bench-webrtc-'));
  const clip = await encodeCameraClip(dir);
  const engine = await startBenchEngine({
    flags: process.env.RELAY_NODE_FLAGS?.split(' ').filter(Boolean),
    extra: 'webrtc:\n  listen: 127.0.0.1:0\n',
  });
  const { api } = engine;
  const pid = engine.process.pid!;
  const rtspUrl = engine.rtspUrl('cam');
  const rtspPort = Number(new URL(rtspUrl).port);
  const loadAtStart = loadavg()[0]!;
  const camera = publishLoopedClip(clip, rtspUrl);
  await sleep(3_000);

  const frames = await firstFrames(api);
  const rows: string[] = [];
  /** The SRTP profiles the werift viewers ended up with. */
  const viewerProfiles = new Set<string>();
  for (const n of counts) {
    const webrtc: Window[] = [];
    const rtsp: Window[] = [];
    for (let round = 0; round < rounds; round++) {
      webrtc.push(await measure(pid, api, () => webrtcViewer(api, viewerProfiles), n));
      rtsp.push(await measure(pid, api, (i) => rtspViewer(rtspPort, i), n));
    }
    const [ours, peer] = [medianWindow(webrtc), medianWindow(rtsp)];
    const cells = (r: Window) => [
      r.cpu.toFixed(2).padStart(10),
      `${(r.kernel * 100).toFixed(0)} %`.padStart(7),
      r.rss.toFixed(1).padStart(8),
      (r.bytes * 8e-6).toFixed(1).padStart(9),
    ];
    const perRound = webrtc.map((w, i) => `${w.cpu.toFixed(1)}/${rtsp[i]!.cpu.toFixed(1)}`).join(' ');
    rows.push(
      [String(n).padStart(7), ...cells(ours), ...cells(peer), (ours.cpu / peer.cpu).toFixed(2).padStart(7), `   ${perRound}`].join(' '),
    );
  }
  const loadAtEnd = loadavg()[0]!;

  const ms = (list: number[]) => `${median(list).toFixed(0)} ms (runs: ${list.map((v) => v.toFixed(0)).join(', ')})`;
  console.log(
    `\nWebRTC from the relay: one 1280x720 H264 camera at 2 Mbit/s (relay in its own process, ${process.platform}, ${cpus().length} cores, ${cpus()[0]?.model ?? ''})`,
  );
  console.log(`load average ${loadAtStart.toFixed(2)} at the start, ${loadAtEnd.toFixed(2)} at the end\n`);
  console.log(`offer to first decoded frame in Chromium, median of ${runs}:`);
  console.log(`  WHEP (WebRTC)   ${ms(frames.whep.map((p) => p[4]))}`);
  const phase = (i: number) => median(frames.whep.map((p) => p[i]!)).toFixed(0);
  console.log(
    `    medians: offer sent ${phase(0)}, answer in ${phase(1)}, ICE up ${phase(2)}, DTLS up ${phase(3)}, first frame ${phase(4)} ms`,
  );
  console.log(`    Chromium's SRTP: ${[...frames.ciphers].join(', ')}`);
  console.log(`  /api/ws MSE     ${ms(frames.mse)}`);
  console.log(
    `\nrelay per viewer count, ${seconds} s measured per window, ${rounds} round(s) of WebRTC then RTSP, werift viewers offering ${values.srtp === 'cm' ? 'AES-CM alone' : 'AES-GCM and AES-CM'} got SRTP ${[...viewerProfiles].join(', ')}, medians (CPU in s/min and its share in the kernel, RSS in MiB, the largest; sent in Mbit/s):`,
  );
  console.log('viewers  webrtc CPU  kernel   RSS   sent      rtsp CPU  kernel   RSS   sent   ratio   rounds (webrtc/rtsp CPU)');
  for (const row of rows) console.log(row);
  console.log('goal: ratio at most 2.0 at 25 viewers');

  camera.kill('SIGKILL');
  await engine.stop();
  await rm(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
