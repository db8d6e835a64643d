import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { cpuSeconds, rssMiB, writeSyscalls } from '../process-stats';

/** What one process of light RTSP viewers (bench/lib/rtsp-viewers.mjs) saw, with the server's cost over its window. */
export interface ViewerRun {
  /** The server's CPU over the viewers' measured window, % of one core. */
  cpuPercent: number;
  /** The server's RSS at the end of the window, MiB. */
  rss: number;
  /**
   * The server's write-like system calls (write, writev) per second over the window: what each
   * viewer costs the kernel. Only this app's: GStreamer sends with sendmsg, which Linux does not count.
   */
  writesPerSecond: number;
  served: number;
  gaps: number;
  /** Per sampled viewer: (sequence number, arrival) of each packet. */
  arrivals: number[][];
  /** Per sampled viewer: (RTP timestamp, arrival) of each picture's last packet. */
  pictures: number[][];
  failed: string[];
}

export interface ViewerOptions {
  url: string;
  count: number;
  /** How many of them note arrival times. */
  sample: number;
  seconds: number;
  warmupSeconds?: number;
  transport?: 'tcp' | 'udp';
  /** The server whose CPU, RSS and writes are taken over the window. */
  serverPid: number;
  /** Each viewer process is added here, so a bench that ends early can kill it. */
  children?: ChildProcess[];
}

/** Runs one viewer process to its end: its result, and the server's CPU and RSS over its measured window. */
export async function runViewerProcess(options: ViewerOptions): Promise<ViewerRun> {
  const { serverPid } = options;
  const child = spawn(
    process.execPath,
    [
      'bench/lib/rtsp-viewers.mjs',
      '--url',
      options.url,
      '--count',
      String(options.count),
      '--sample',
      String(options.sample),
      '--seconds',
      String(options.seconds),
      '--warmup',
      String(options.warmupSeconds ?? 3),
      '--transport',
      options.transport ?? 'tcp',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  options.children?.push(child);
  const lines = createInterface({ input: child.stdout! });
  let cpu0 = 0;
  let cpu = 0;
  let writes0 = 0;
  let writes = 0;
  let started = 0;
  let elapsed = 0;
  let rss = 0;
  let result: Omit<ViewerRun, 'cpuPercent' | 'rss' | 'writesPerSecond'> | undefined;
  for await (const line of lines) {
    if (line.startsWith('MEASURE ')) {
      cpu0 = cpuSeconds(serverPid);
      writes0 = writeSyscalls(serverPid);
      started = performance.now();
    } else if (line.startsWith('MEASURED ')) {
      cpu = cpuSeconds(serverPid) - cpu0;
      writes = writeSyscalls(serverPid) - writes0;
      elapsed = (performance.now() - started) / 1000;
      rss = rssMiB(serverPid);
    } else if (line.startsWith('{')) {
      result = JSON.parse(line) as typeof result;
    }
  }
  if (!result) throw new Error(`the viewers against ${options.url} printed no result`);
  return { ...result, cpuPercent: (cpu / elapsed) * 100, rss, writesPerSecond: writes / elapsed };
}

/** Each percentile of a sorted list (NaN when empty). */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The middle value (the upper one of an even count). */
export const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
