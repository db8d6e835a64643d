// Soak: consumers join and leave one camera stream every second for `--minutes` (RTSP through
// ffmpeg, stream.mp4, frame.jpeg and HLS in turn, each staying 3 s). The relay's RSS, open file
// descriptors and child processes are sampled throughout; at the end, once the last consumer has
// gone and what idles out has (snapshot decoders after 30 s, HLS sessions after 5 s), they must
// be back within 10 % of where they were after a warm-up round of the same churn (the first use
// of each output loads code once, which is not a leak). Not run by CI.
//
//   npm run bench:soak [-- --minutes 60]
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startBenchEngine } from './lib/engine';
import { descendants, rssMiB } from './process-stats';

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '60' }, 'warmup-seconds': { type: 'string', default: '40' } },
});
const minutes = Number(values.minutes);
const warmupSeconds = Number(values['warmup-seconds']);
/** Long enough for everything that idles out: the snapshot decoder stays 30 s after its last picture. */
const SETTLE_MS = 40_000;
const STAY_MS = 3000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Levels {
  rss: number;
  fds: number;
  children: number;
}

function levels(pid: number): Levels {
  return { rss: rssMiB(pid), fds: readdirSync(`/proc/${pid}/fd`).length, children: descendants(pid).length };
}

type Kind = 'rtsp' | 'stream.mp4' | 'frame.jpeg' | 'hls';
const KINDS: Kind[] = ['rtsp', 'stream.mp4', 'frame.jpeg', 'hls'];

/** One consumer that stays about STAY_MS; resolves when it has left. Failures are counted, not thrown. */
async function consume(kind: Kind, api: string, rtspUrl: string): Promise<boolean> {
  if (kind === 'rtsp') {
    const viewer = spawn(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-rtsp_transport',
        'tcp',
        '-i',
        rtspUrl,
        '-t',
        String(STAY_MS / 1000),
        '-c',
        'copy',
        '-f',
        'null',
        '-',
      ],
      { stdio: 'ignore' },
    );
    return new Promise((resolve) => viewer.once('exit', (code) => resolve(code === 0)));
  }
  if (kind === 'frame.jpeg') {
    const response = await fetch(`${api}/api/frame.jpeg?src=cam`);
    const ok = response.ok && (await response.arrayBuffer()).byteLength > 0;
    await sleep(STAY_MS);
    return ok;
  }
  if (kind === 'stream.mp4') {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), STAY_MS);
    let bytes = 0;
    try {
      const response = await fetch(`${api}/api/stream.mp4?src=cam`, { signal: abort.signal });
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
    } catch {
      // Aborted on purpose after STAY_MS.
    } finally {
      clearTimeout(timer);
    }
    return bytes > 0;
  }
  // HLS: master, media playlist and its newest segment, then nothing (the session expires).
  const master = await (await fetch(`${api}/api/stream.m3u8?src=cam`)).text();
  const playlistUrl = new URL(master.trim().split('\n').pop()!, `${api}/api/stream.m3u8`);
  const playlist = await (await fetch(playlistUrl)).text();
  const segment = playlist
    .trim()
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .pop();
  const ok = !!segment && (await fetch(new URL(segment, playlistUrl))).ok;
  await sleep(STAY_MS);
  return ok;
}

/** Starts a consumer every second for `ms`, cycling through the kinds; waits for the last to leave. */
async function churn(
  ms: number,
  api: string,
  rtspUrl: string,
  tally: Map<Kind, { ok: number; failed: number }>,
  onSecond?: (second: number) => void,
): Promise<void> {
  const running: Promise<void>[] = [];
  const end = Date.now() + ms;
  for (let second = 0; Date.now() < end; second++) {
    const kind = KINDS[second % KINDS.length]!;
    running.push(
      consume(kind, api, rtspUrl)
        .catch(() => false)
        .then((ok) => {
          const count = tally.get(kind) ?? { ok: 0, failed: 0 };
          count[ok ? 'ok' : 'failed']++;
          tally.set(kind, count);
        }),
    );
    onSecond?.(second);
    await sleep(1000);
  }
  await Promise.all(running);
}

const within = (end: number, start: number) => Math.abs(end - start) <= Math.max(start * 0.1, 1);

async function main(): Promise<void> {
  const engine = await startBenchEngine();
  const { api } = engine;
  const rtspUrl = engine.rtspUrl('cam');
  let camera: ChildProcess | undefined;
  try {
    camera = spawn(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-re',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=640x360:rate=25',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:sample_rate=48000',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-tune',
        'zerolatency',
        '-g',
        '50',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-f',
        'rtsp',
        '-rtsp_transport',
        'tcp',
        rtspUrl,
      ],
      { stdio: 'ignore' },
    );
    await sleep(4000);
    const pid = engine.process.pid!;
    const idle = levels(pid);
    const tally = new Map<Kind, { ok: number; failed: number }>();
    console.log(`warm-up: ${warmupSeconds} s of churn, then ${SETTLE_MS / 1000} s to settle`);
    await churn(warmupSeconds * 1000, api, rtspUrl, tally);
    await sleep(SETTLE_MS);
    const start = levels(pid);
    console.log(`soak: ${minutes} min; every minute: RSS MiB, fds, children (while consumers come and go)`);
    const peak: Levels = { ...start };
    await churn(minutes * 60_000, api, rtspUrl, tally, (second) => {
      const now = levels(pid);
      peak.rss = Math.max(peak.rss, now.rss);
      peak.fds = Math.max(peak.fds, now.fds);
      peak.children = Math.max(peak.children, now.children);
      if (second > 0 && second % 60 === 0)
        console.log(`  ${String(second / 60).padStart(3)} min: ${now.rss.toFixed(1)} MiB, ${now.fds} fds, ${now.children} children`);
    });
    await sleep(SETTLE_MS);
    const end = levels(pid);

    console.log(
      `\nsoak of ${minutes} min, a consumer joining every second and staying ${STAY_MS / 1000} s (RTSP, stream.mp4, frame.jpeg, HLS in turn)\n`,
    );
    console.log(
      '|                  | idle (no consumer yet) | after warm-up (start) | peak during | end (settled) | end within 10 % of start |',
    );
    console.log(
      '|------------------|------------------------|-----------------------|-------------|---------------|--------------------------|',
    );
    for (const [name, key, digits] of [
      ['RSS, MiB', 'rss', 1],
      ['file descriptors', 'fds', 0],
      ['child processes', 'children', 0],
    ] as const) {
      console.log(
        `| ${name.padEnd(16)} | ${idle[key].toFixed(digits).padStart(22)} | ${start[key].toFixed(digits).padStart(21)} | ${peak[key].toFixed(digits).padStart(11)} | ${end[key].toFixed(digits).padStart(13)} | ${(within(end[key], start[key]) ? 'yes' : 'NO').padStart(24)} |`,
      );
    }
    console.log(
      `\nconsumers served (ok / failed): ${KINDS.map((kind) => `${kind} ${tally.get(kind)?.ok ?? 0} / ${tally.get(kind)?.failed ?? 0}`).join(', ')}`,
    );
  } finally {
    camera?.kill('SIGKILL');
    await engine.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
