import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startBenchEngine, type BenchEngine } from './engine';
import { pictureDelays } from './picture-delays';
import { startTappedCamera, type TappedCamera } from './tapped-camera';
import { median, percentile, runViewerProcess, type ViewerRun } from './viewer-run';

// The fan-out chain: one camera → relay A → relays B and C → N RTSP viewers on each of the three,
// built from this app's relays and, in the same run, from GStreamer's RTSP server, the two chains
// measured turn about.

export interface ChainOptions {
  viewers: number;
  seconds: number;
  rounds: number;
  /** Each child process, so the bench can kill what is left however it ends. */
  children: ChildProcess[];
  progress(message: string): void;
}

/** One relay of a chain: what its viewers are pointed at and whose CPU is taken. */
interface ChainRelay {
  url: string;
  pid: number;
}

/** A chain's A, B and C, in that order. */
type Chain = [ChainRelay, ChainRelay, ChainRelay];

export interface RelayFigures {
  cpuPercent: number;
  rss: number;
  served: number;
  gaps: number;
  /** Whole pictures from the camera into A to a viewer of this relay, ms. */
  pictureP50: number;
  pictureP99: number;
}

export interface ChainResult {
  ours: RelayFigures[];
  /** GStreamer's figures, or why its RTSP server could not be started. */
  peer: RelayFigures[] | string;
}

/** `this app's A/B/C` from the built bundle: A is published into; B and C pull `relay://a/cam` as remote relays of theirs. */
async function ourChain(camera: TappedCamera, engines: BenchEngine[]): Promise<Chain> {
  const webrtc = 'webrtc:\n  listen: 127.0.0.1:0\n';
  const a = await startBenchEngine({ extra: webrtc });
  engines.push(a);
  await camera.publishTo(Number(new URL(a.rtspUrl('cam')).port), 'cam');
  const pulling = { streams: '  cam: relay://a/cam\n', extra: `${webrtc}relays:\n  a: ${a.api}\n` };
  const [b, c] = await Promise.all([startBenchEngine(pulling), startBenchEngine(pulling)]);
  engines.push(b!, c!);
  return [a, b!, c!].map((engine) => ({ url: engine.rtspUrl('cam'), pid: engine.process.pid! })) as Chain;
}

/** GStreamer's RTSP server as relay (bench/peers/gst-rtsp-relay.py): A pulls the camera from the tap, B and C pull A. */
async function gstChain(camera: TappedCamera, children: ChildProcess[]): Promise<Chain> {
  const relay = async (source: string): Promise<ChainRelay> => {
    const child = spawn('/usr/bin/python3', ['bench/peers/gst-rtsp-relay.py', '--camera', source], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    const port = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout! });
      lines.on('line', (line) => {
        const match = /^PORT (\d+)/.exec(line);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`GStreamer's RTSP server exited (${code}) before it listened`)));
    });
    return { url: `rtsp://127.0.0.1:${port}/cam`, pid: child.pid! };
  };
  const a = await relay(await camera.serve('peer'));
  const [b, c] = await Promise.all([relay(a.url), relay(a.url)]);
  return [a, b, c];
}

/** N viewers on each relay of a chain at once (up to 10 of each noting arrivals), and what each relay cost and delayed. */
async function measureChain(chain: Chain, camera: TappedCamera, options: ChainOptions): Promise<RelayFigures[]> {
  const sample = Math.min(options.viewers, 10);
  const runs: ViewerRun[] = await Promise.all(
    chain.map((relay) =>
      runViewerProcess({
        url: relay.url,
        count: options.viewers,
        sample,
        seconds: options.seconds,
        serverPid: relay.pid,
        children: options.children,
      }),
    ),
  );
  return runs.map((run) => {
    const delays = run.pictures.flatMap((pictures) => pictureDelays(camera.pictureSentAt, pictures)).sort((x, y) => x - y);
    for (const failure of run.failed) console.error(`viewer failed: ${failure}`);
    return {
      cpuPercent: run.cpuPercent,
      rss: run.rss,
      served: run.served,
      gaps: run.gaps,
      pictureP50: percentile(delays, 50),
      pictureP99: percentile(delays, 99),
    };
  });
}

/** Each relay's figures, the median over rounds (the fewest served, the gaps summed, the largest RSS). */
function medianFigures(rounds: RelayFigures[][]): RelayFigures[] {
  return [0, 1, 2].map((i) => {
    const of = rounds.map((round) => round[i]!);
    return {
      cpuPercent: median(of.map((f) => f.cpuPercent)),
      rss: Math.max(...of.map((f) => f.rss)),
      served: Math.min(...of.map((f) => f.served)),
      gaps: of.reduce((sum, f) => sum + f.gaps, 0),
      pictureP50: median(of.map((f) => f.pictureP50)),
      pictureP99: median(of.map((f) => f.pictureP99)),
    };
  });
}

/** Builds both chains on one camera and measures them turn about, `rounds` times. */
export async function runChains(options: ChainOptions): Promise<ChainResult> {
  const dir = await mkdtemp(join(tmpdir(), 'rc-bench-chain-'));
  const engines: BenchEngine[] = [];
  const camera = await startTappedCamera(dir);
  try {
    options.progress('camera publishing; starting this app’s chain and GStreamer’s');
    const ours = await ourChain(camera, engines);
    const peer = await gstChain(camera, options.children).catch((error: unknown) => (error as Error).message);
    const ourRounds: RelayFigures[][] = [];
    const peerRounds: RelayFigures[][] = [];
    for (let round = 1; round <= options.rounds; round++) {
      options.progress(`round ${round} of ${options.rounds}: this app's chain`);
      ourRounds.push(await measureChain(ours, camera, options));
      if (typeof peer === 'string') continue;
      options.progress(`round ${round} of ${options.rounds}: GStreamer's chain`);
      peerRounds.push(await measureChain(peer, camera, options));
    }
    return { ours: medianFigures(ourRounds), peer: typeof peer === 'string' ? peer : medianFigures(peerRounds) };
  } finally {
    await camera.close();
    await Promise.all(engines.map((engine) => engine.stop()));
    await rm(dir, { recursive: true, force: true });
  }
}
