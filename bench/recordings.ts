// Eight 720p H264 + AAC cameras (~2 Mbit/s each: a clip ffmpeg encodes first, then sends in
// real time, looped) recorded at once with `schedule: always` and 10 s segments by the relay
// into a bucket of the storage emulator, next to the peer in the same run: one
// `ffmpeg -c copy -f segment` per camera writing 10 s MP4 files to local disk.
//
// The relay is the recording engine (relay, storage client, recordings: what records) bundled
// as scripts/build.mjs bundles the app's entries (into dist/bench) and run in a process of its
// own with the engine's V8 flags; the emulator runs from the built bundle in another, so the relay's CPU is its own (receiving, muxing, spooling,
// uploading) and excludes storing. Its CPU is printed apart, not counted. The cameras are served
// by the relay's RTSP server in this process (the same for both sides).
//
// Prints CPU (% of one core, user + system from /proc over the measured window) and the largest
// RSS of the relay and of the eight ffmpeg processes together, the ratio, segments finished
// (the relay's also uploaded) and their bytes, and the machine's load average.
//
//   npm run bench:recordings [-- --seconds 60 --cameras 8 --warmup 20 --rounds 1]
//   RELAY_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the relay's process.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { build as esbuild } from 'esbuild';
import { buildMain } from '../scripts/build.mjs';
import { ENGINE_V8_FLAGS, engineEnv } from '../scripts/engine-flags.mjs';
import { createMemoryLogger } from '../src-main/platform/logger';
import { createSchemeRegistry } from '../src-main/relay/core/scheme-registry';
import { createStreamRegistry } from '../src-main/relay/core/stream-registry';
import { createTaskRegistry } from '../src-main/relay/core/task-registry';
import { startRtspServer } from '../src-main/relay/protocols/rtsp/rtsp-server';
import { waitUntil } from '../src-main/test-support/time';
import { cpuSeconds, pssMiB, rssMiB, treeCpuSeconds } from './process-stats';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    cameras: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '1' },
  },
});
const seconds = Number(values.seconds);
const cameraCount = Number(values.cameras);
const warmupSeconds = Number(values.warmup);
const rounds = Number(values.rounds);
if (!(seconds > 0) || !Number.isInteger(cameraCount) || cameraCount < 1 || !Number.isInteger(rounds) || rounds < 1)
  throw new Error('--seconds > 0, --cameras >= 1 and --rounds >= 1');
const CLIP_SECONDS = 30;
const SEGMENT_SECONDS = 10;
const AK = 'bench-rec-ak';
const SK = 'bench-rec-sk-secret';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Child processes to kill however the run ends. */
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

function track(child: ChildProcess): ChildProcess {
  children.push(child);
  return child;
}

/** Resolves with the first group of `pattern` once a line of the child's stdout matches it. */
function lineOf(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolveLine, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const match = pattern.exec(line);
      if (match) {
        lines.close();
        resolveLine(match[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`${child.spawnargs.join(' ')} exited (${code}) before printing ${pattern}`)));
  });
}

async function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** The camera's picture and sound, encoded once: eight live encoders would take the machine. */
async function encodeClip(dir: string): Promise<string> {
  const clip = join(dir, 'camera.mp4');
  const args = ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc2=size=1280x720:rate=25:duration=${CLIP_SECONDS}`];
  args.push('-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${CLIP_SECONDS}`);
  args.push('-c:v', 'libx264', '-preset', 'veryfast', '-b:v', '2M', '-maxrate', '2M', '-bufsize', '1M', '-g', '50');
  args.push('-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '64k', '-ac', '1', clip);
  const code = await new Promise((r) => spawn('ffmpeg', args, { stdio: 'inherit' }).once('exit', r));
  if (code !== 0) throw new Error(`ffmpeg could not make the camera clip (${code})`);
  return clip;
}

/**
 * The cameras: an RTSP server (the relay's, in this process) with streams cam1..camN, each
 * published by an ffmpeg sending the clip as is in real time, started a fraction of a GOP apart
 * so the cameras' keyframes (and segment cuts) do not all fall at once.
 */
async function startCameras(clip: string): Promise<{ urls: string[]; close(): Promise<void> }> {
  const logger = createMemoryLogger('error');
  const tasks = createTaskRegistry();
  const streams = createStreamRegistry({ schemes: createSchemeRegistry(), logger, tasks });
  const server = await startRtspServer({ host: '127.0.0.1', port: 0, streams, tasks, logger, defaultQuery: 'video&audio' });
  const names = Array.from({ length: cameraCount }, (_, i) => `cam${i + 1}`);
  for (const name of names) {
    streams.set(name, []);
    const target = `rtsp://127.0.0.1:${server.port}/${name}`;
    const args = ['-hide_banner', '-loglevel', 'error', '-re', '-stream_loop', '-1', '-i', clip, '-c', 'copy'];
    track(spawn('ffmpeg', [...args, '-f', 'rtsp', '-rtsp_transport', 'tcp', target], { stdio: 'ignore' }));
    await sleep(2000 / cameraCount);
  }
  await waitUntil(() => names.every((name) => (streams.get(name)?.info().producers.length ?? 0) > 0), {
    timeout: 20_000,
    interval: 100,
    what: 'every camera publishing',
  });
  return {
    urls: names.map((name) => `rtsp://127.0.0.1:${server.port}/${name}`),
    close: async () => {
      streams.close();
      await server.close();
    },
  };
}

/** The storage emulator from the built bundle, alone in its process, with the bucket `rec`. */
async function startEmulator(dir: string): Promise<{ child: ChildProcess; port: number }> {
  await buildMain();
  const config = join(dir, 'emulator.yaml');
  await writeFile(
    config,
    `data_dir: ${join(dir, 'emulator-data')}\nlog:\n  level: warn\nstorage:\n  emulator:\n    listen: 127.0.0.1:0\n    accounts:\n      - access_key: ${AK}\n        secret_key: ${SK}\n        buckets:\n          - name: rec\n            domains: [rec.test]\n`,
  );
  const child = track(
    spawn(process.execPath, ['dist/main/storage-emulator.js', '--config', config], { stdio: ['ignore', 'pipe', 'inherit'] }),
  );
  const port = Number(await lineOf(child, /storage emulator at http:\/\/127\.0\.0\.1:(\d+)/));
  return { child, port };
}

/**
 * The recording engine (`src-main/recordings/test-support/recording-engine.ts`) bundled as the
 * app's entries are (esbuild, packages external), so its process holds what `npm start` would
 * load for recording and no TypeScript runner.
 */
async function bundleRecordingEngine(): Promise<string> {
  const outfile = resolve('dist/bench/recording-engine.js');
  await esbuild({
    entryPoints: [resolve('src-main/recordings/test-support/recording-engine.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  return outfile;
}

/** The recording engine in its own process, recording every camera into the emulator's bucket. */
async function startRelay(dir: string, urls: string[], emulatorPort: number): Promise<{ child: ChildProcess; api: string }> {
  const config = join(dir, 'engine.yaml');
  const streams = urls.map((url, i) => `  cam${i + 1}: ${url}`).join('\n');
  const recordings = urls
    .map((_, i) => `  cam${i + 1}:\n    bucket: rec\n    segment: ${SEGMENT_SECONDS}s\n    schedule: always`)
    .join('\n');
  await writeFile(
    config,
    [
      `data_dir: ${join(dir, 'engine-data')}`,
      'api:\n  listen: 127.0.0.1:0',
      'rtsp:\n  listen: ""',
      'webrtc:\n  listen: 127.0.0.1:0',
      'log:\n  level: warn',
      // The storage client's `local` account: the emulator running apart.
      `storage:\n  emulator:\n    listen: 127.0.0.1:${emulatorPort}\n    accounts:\n      - access_key: ${AK}\n        secret_key: ${SK}`,
      `streams:\n${streams}`,
      `recordings:\n${recordings}`,
      '',
    ].join('\n'),
  );
  const flags = [...ENGINE_V8_FLAGS, ...(process.env.RELAY_NODE_FLAGS?.split(' ').filter(Boolean) ?? [])];
  const engine = await bundleRecordingEngine();
  const child = track(spawn(process.execPath, [...flags, engine, config], { stdio: ['ignore', 'pipe', 'inherit'], env: engineEnv() }));
  return { child, api: await lineOf(child, /^listening (http:\S+)/) };
}

/** The peer: one ffmpeg per camera, cutting 10 s MP4 files into a folder of its own. */
async function startPeers(dir: string, urls: string[]): Promise<{ children: ChildProcess[]; folders: string[] }> {
  const folders = urls.map((_, i) => join(dir, 'peer', `cam${i + 1}`));
  const peers: ChildProcess[] = [];
  for (const [i, url] of urls.entries()) {
    await mkdir(folders[i]!, { recursive: true });
    const args = ['-hide_banner', '-loglevel', 'error', '-rtsp_transport', 'tcp', '-i', url, '-c', 'copy', '-f', 'segment'];
    args.push('-segment_time', String(SEGMENT_SECONDS), '-segment_format', 'mp4', '-reset_timestamps', '1');
    peers.push(track(spawn('ffmpeg', [...args, join(folders[i]!, 'out%03d.mp4')], { stdio: ['ignore', 'ignore', 'inherit'] })));
  }
  return { children: peers, folders };
}

async function filesOf(folder: string): Promise<Array<{ name: string; bytes: number }>> {
  const names = (await readdir(folder).catch(() => [] as string[])).sort();
  return Promise.all(names.map(async (name) => ({ name, bytes: (await stat(join(folder, name))).size })));
}

interface Segments {
  finished: number;
  uploaded: number;
  bytes: number;
}

/** The relay's finished segments: listed in the bucket (uploaded) or waiting in the spool as `.mp4`. */
async function relaySegments(api: string, dir: string): Promise<Segments> {
  let uploaded = 0;
  let bytes = 0;
  for (let i = 1; i <= cameraCount; i++) {
    const listed = (await (await fetch(`${api}/api/recordings?src=cam${i}`)).json()) as { segments: Array<{ bytes: number }> };
    uploaded += listed.segments.length;
    bytes += listed.segments.reduce((sum, s) => sum + s.bytes, 0);
  }
  let spooled = 0;
  const spool = join(dir, 'engine-data', 'recordings', 'spool');
  for (const folder of await readdir(spool).catch(() => [] as string[])) {
    for (const file of await filesOf(join(spool, folder))) {
      if (!file.name.endsWith('.mp4')) continue;
      spooled++;
      bytes += file.bytes;
    }
  }
  return { finished: uploaded + spooled, uploaded, bytes };
}

/** The peer's finished files: all but the last of each camera, which ffmpeg is still writing. */
async function peerSegments(folders: string[]): Promise<Segments> {
  let finished = 0;
  let bytes = 0;
  for (const folder of folders) {
    const files = (await filesOf(folder)).slice(0, -1);
    finished += files.length;
    bytes += files.reduce((sum, f) => sum + f.bytes, 0);
  }
  return { finished, uploaded: 0, bytes };
}

/** Both sides have begun writing a segment of every camera. */
async function waitForRecording(dir: string, folders: string[]): Promise<void> {
  const spool = join(dir, 'engine-data', 'recordings', 'spool');
  await waitUntil(
    async () => {
      const spoolFolders = await readdir(spool).catch(() => [] as string[]);
      return spoolFolders.length >= cameraCount && folders.every((folder) => existsSync(join(folder, 'out000.mp4')));
    },
    { timeout: 60_000, interval: 250, what: 'the relay and the peer recording every camera' },
  );
}

interface Window {
  relayCpu: number;
  peerCpu: number;
  emulatorCpu: number;
  relayRss: number;
  peerRss: number;
  relayPss: number;
  peerPss: number;
  emulatorRss: number;
}

/**
 * CPU (% of a core) over `seconds`, and the largest RSS and PSS (sampled every second) of each
 * side: the peer's RSS counts the libraries its eight processes share eight times, its PSS once.
 */
async function measureWindow(relay: number, peers: number[], emulator: number): Promise<Window> {
  const peersSum = (of: (pid: number) => number) => peers.reduce((sum, pid) => sum + of(pid), 0);
  const peersCpu = () => peersSum(cpuSeconds);
  const start = { relay: treeCpuSeconds(relay), peers: peersCpu(), emulator: cpuSeconds(emulator), at: performance.now() };
  const rss = { relay: 0, peers: 0, relayPss: 0, peersPss: 0, emulator: 0 };
  const deadline = start.at + seconds * 1000;
  while (performance.now() < deadline) {
    await sleep(Math.min(1000, deadline - performance.now()));
    rss.relay = Math.max(rss.relay, rssMiB(relay));
    rss.peers = Math.max(rss.peers, peersSum(rssMiB));
    rss.relayPss = Math.max(rss.relayPss, pssMiB(relay));
    rss.peersPss = Math.max(rss.peersPss, peersSum(pssMiB));
    rss.emulator = Math.max(rss.emulator, rssMiB(emulator));
  }
  const elapsed = (performance.now() - start.at) / 1000;
  const percent = (cpu: number) => (cpu / elapsed) * 100;
  return {
    relayCpu: percent(treeCpuSeconds(relay) - start.relay),
    peerCpu: percent(peersCpu() - start.peers),
    emulatorCpu: percent(cpuSeconds(emulator) - start.emulator),
    relayRss: rss.relay,
    peerRss: rss.peers,
    relayPss: rss.relayPss,
    peerPss: rss.peersPss,
    emulatorRss: rss.emulator,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Each figure's median over the windows (the ratio printed is of the medians). */
function medianWindow(windows: Window[]): Window {
  const keys = Object.keys(windows[0]!) as (keyof Window)[];
  return Object.fromEntries(keys.map((key) => [key, median(windows.map((w) => w[key]))])) as unknown as Window;
}

function report(clipMbps: number, loads: number[][], window: Window, relay: Segments, peer: Segments): void {
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
  console.log(
    `\nrecordings: ${cameraCount} cameras, 1280x720 H264 25 fps + AAC at ${clipMbps.toFixed(2)} Mbit/s each (GOP 2 s), ${SEGMENT_SECONDS} s segments, ${rounds > 1 ? `medians of ${rounds} windows of ${seconds} s` : `${seconds} s`} measured after ${warmupSeconds} s of warm-up; ${process.platform}, ${cpus().length} cores, ${cpus()[0]?.model ?? ''}`,
  );
  console.log(`load average (1, 5, 15 min): ${load(loads[0]!)} at the start, ${load(loads[1]!)} at the end`);
  console.log(
    'relay: the recording engine (relay, storage client, recordings; bundled) in its own process, uploading to the storage emulator (built bundle) in another',
  );
  console.log(
    `peer: ${cameraCount} x ffmpeg -rtsp_transport tcp -i <camera> -c copy -f segment -segment_time ${SEGMENT_SECONDS} -segment_format mp4 -reset_timestamps 1 out%03d.mp4 (local disk, nothing uploaded)\n`,
  );
  console.log('side                     CPU, % of a core   RSS, MiB   PSS, MiB   segments finished   uploaded       MB');
  const row = (name: string, cpu: number, rss: number, pss: number, s: Segments, uploaded: string) =>
    console.log(
      `${name.padEnd(24)} ${cpu.toFixed(1).padStart(16)} ${rss.toFixed(0).padStart(10)} ${pss.toFixed(0).padStart(10)} ${String(s.finished).padStart(19)} ${uploaded.padStart(10)} ${mb(s.bytes).padStart(8)}`,
    );
  row('relay', window.relayCpu, window.relayRss, window.relayPss, relay, String(relay.uploaded));
  row(`peer (${cameraCount} x ffmpeg)`, window.peerCpu, window.peerRss, window.peerPss, peer, '-');
  console.log(
    `ratio relay / peer: CPU ${(window.relayCpu / window.peerCpu).toFixed(2)}, RSS ${(window.relayRss / window.peerRss).toFixed(2)}, PSS ${(window.relayPss / window.peerPss).toFixed(2)} (goal: CPU at most 1)`,
  );
  console.log(
    `storage emulator (storing the uploads, not counted above): CPU ${window.emulatorCpu.toFixed(1)} % of a core, RSS ${window.emulatorRss.toFixed(0)} MiB`,
  );
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'rc-bench-recordings-'));
  try {
    const clip = await encodeClip(dir);
    const clipMbps = ((await stat(clip)).size * 8) / CLIP_SECONDS / 1e6;
    const cameras = await startCameras(clip);
    const emulator = await startEmulator(dir);
    const relay = await startRelay(dir, cameras.urls, emulator.port);
    const peers = await startPeers(dir, cameras.urls);
    await waitForRecording(dir, peers.folders);
    await sleep(warmupSeconds * 1000);
    const loads = [loadavg()];
    // Both sides record at once, so each window measures them under the same load; several
    // windows in a row give medians that one busy moment of the machine does not sway.
    const windows: Window[] = [];
    for (let round = 1; round <= rounds; round++) {
      const window = await measureWindow(
        relay.child.pid!,
        peers.children.map((c) => c.pid!),
        emulator.child.pid!,
      );
      windows.push(window);
      if (rounds > 1)
        console.log(
          `round ${round}: relay ${window.relayCpu.toFixed(1)} %, peer ${window.peerCpu.toFixed(1)} %, ratio ${(window.relayCpu / window.peerCpu).toFixed(2)}`,
        );
    }
    const window = medianWindow(windows);
    loads.push(loadavg());
    const [relaySegs, peerSegs] = await Promise.all([relaySegments(relay.api, dir), peerSegments(peers.folders)]);
    await Promise.all(peers.children.map((c) => stopChild(c, 'SIGINT')));
    await stopChild(relay.child, 'SIGTERM');
    await stopChild(emulator.child, 'SIGTERM');
    await cameras.close();
    report(clipMbps, loads, window, relaySegs, peerSegs);
  } finally {
    for (const child of children) child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
