// Many relays, one console: N relay processes of this app (headless, loopback, the emulators
// off, S synthetic streams each whose sources are never dialed) listed in the console's
// `relays:`, and the console (the built headless app, a process of its own) polling them.
//
// Prints how long the console takes, from its start, until every relay's streams are listed
// (the `relays.streams` answer over the console's own WebSocket contract, as the renderer asks
// it, and the `onStreams` event that tells it), then the console's CPU (% of one core, user +
// system from /proc) and RSS while idle with N × S streams known, over a window of several
// poll rounds, and the machine's load average. Then, with the same streams known, 16 remote
// tiles playing in the console's live view in headless Chromium: the first stream of each of 16
// relays pulls one 640x360 camera (see lib/remote-tiles.ts); the console's and Chromium's CPU and memory.
//
// `--chain`: the fan-out chain instead (see lib/relay-chain.ts): one camera → relay A → relays
// B and C → N RTSP viewers on each, this app's relays next to GStreamer's RTSP server.
//
//   npm run bench:relays [-- --relays 20 --streams 25 --idle 30 --tiles 16 --tiles-seconds 20 --tiles-mode mse|webrtc|hls|mjpeg|auto]
//   npm run bench:relays -- --chain [--viewers 10 --seconds 15 --rounds 3]
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { PLAYER_MODES } from '../src-shared/contract/preferences';
import { remoteStreamSource } from '../src-shared/contract/relays';
import { consoleClient } from './lib/console-client';
import { startBenchEngine, type BenchEngine } from './lib/engine';
import { printChain } from './lib/print-chain';
import { runChains } from './lib/relay-chain';
import { measureRemoteTiles, type TilesFigures } from './lib/remote-tiles';
import { cpuSeconds, rssMiB } from './process-stats';

const { values } = parseArgs({
  options: {
    relays: { type: 'string', default: '20' },
    streams: { type: 'string', default: '25' },
    idle: { type: 'string', default: '30' },
    tiles: { type: 'string', default: '16' },
    'tiles-seconds': { type: 'string', default: '20' },
    'tiles-mode': { type: 'string', default: 'mse' },
    chain: { type: 'boolean', default: false },
    viewers: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '15' },
    rounds: { type: 'string', default: '3' },
  },
});
const numbers = {
  relays: Number(values.relays),
  streams: Number(values.streams),
  idle: Number(values.idle),
  'tiles-seconds': Number(values['tiles-seconds']),
  viewers: Number(values.viewers),
  seconds: Number(values.seconds),
  rounds: Number(values.rounds),
};
for (const [name, value] of Object.entries(numbers)) {
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} is a whole number of at least 1`);
}
const tileCount = Number(values.tiles);
if (!Number.isInteger(tileCount) || tileCount < 0 || tileCount > numbers.relays)
  throw new Error('--tiles is a whole number from 0 (none) to the number of relays');
const tilesMode = values['tiles-mode'] === 'auto' ? undefined : PLAYER_MODES.find((mode) => mode === values['tiles-mode']);
if (values['tiles-mode'] !== 'auto' && !tilesMode) throw new Error(`--tiles-mode is auto or one of ${PLAYER_MODES.join(', ')}`);
const { relays: relayCount, streams: streamCount, idle: idleSeconds } = numbers;
/** Each process its own WebRTC port: 21 of them side by side. */
const WEBRTC = 'webrtc:\n  listen: 127.0.0.1:0\n';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(', ');
const cores = () => readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length ?? '?';
const progress = (message: string) => process.stderr.write(`[relays] ${message}\n`);

/** Child processes to kill however the run ends (GStreamer relays, viewers). */
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

type RelayStreamsList = Array<{ relay: string; streams: Array<{ name: string }> }>;
const complete = (list: RelayStreamsList | undefined) =>
  list !== undefined && list.length === relayCount && list.every((r) => r.streams.length === streamCount);

/** Relay i's streams: cam0 … cam<S-1>, never dialed, except cam0 of the first `tiles` relays, which plays `camera`. */
function relayStreams(i: number, camera: string): string {
  return Array.from({ length: streamCount }, (_, s) =>
    s === 0 && i < tileCount ? `  cam0: ${camera}\n` : `  cam${s}: rtsp://127.0.0.1:9/cam${s}\n`,
  ).join('');
}

/**
 * The tiles' camera: ffmpeg encoding 640x360 H264 at 25 fps live (a keyframe every 2 s) into the
 * camera's relay, as bench:console-soak's. Live, not a looped clip: a loop's timestamps start
 * over, which MSE tiles would show as a stall; at this size the encoder takes a tenth of a core.
 */
async function publishCamera(cameraEngine: BenchEngine, url: string): Promise<void> {
  const input = ['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25'];
  const x264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '50', '-pix_fmt', 'yuv420p'];
  children.push(spawn('ffmpeg', [...input, ...x264, '-f', 'rtsp', '-rtsp_transport', 'tcp', url], { stdio: 'ignore' }));
  for (const started = performance.now(); performance.now() - started < 20_000; await sleep(200)) {
    const stream = (await (await fetch(`${cameraEngine.api}/api/streams?src=cam`)).json()) as { producers?: unknown[] };
    if ((stream.producers ?? []).length > 0) return;
  }
  throw new Error('the camera did not publish within 20 s');
}

function printTiles(figures: TilesFigures): void {
  console.log(
    `${tileCount} remote tiles playing (one per relay, all of one 640x360 H264 camera at 25 fps; mode ${values['tiles-mode']}), ${values['tiles-seconds']} s in headless Chromium:`,
  );
  console.log(
    figures.screenshot
      ? `  not every tile live within 120 s of opening the live view (the page: ${figures.screenshot})`
      : `  every tile live after        ${figures.allLiveMs.toFixed(0)} ms from opening the live view`,
  );
  console.log(`  tiles live                   ${figures.liveBefore} at the start of the window, ${figures.liveAfter} at its end`);
  console.log(
    `  console                      CPU ${figures.consoleCpuPercent.toFixed(1)} % of a core, RSS up to ${figures.consoleRssMax.toFixed(0)} MiB`,
  );
  console.log(
    `  Chromium (all its processes) CPU ${figures.chromiumCpuPercent.toFixed(1)} % of a core, PSS up to ${figures.chromiumPssMax.toFixed(0)} MiB`,
  );
}

async function listAndIdle(): Promise<void> {
  const loadAtStart = loadavg();
  const relays: BenchEngine[] = [];
  let consoleEngine: BenchEngine | undefined;
  let cameraEngine: BenchEngine | undefined;
  try {
    // The camera's relay (not measured) is up first, so the relays know its address; it is fed only for the tiles.
    if (tileCount > 0) cameraEngine = await startBenchEngine({ extra: WEBRTC });
    const cameraUrl = cameraEngine?.rtspUrl('cam') ?? '';
    progress(`starting ${relayCount} relays with ${streamCount} streams each ...`);
    for (let i = 0; i < relayCount; i++) relays.push(await startBenchEngine({ streams: relayStreams(i, cameraUrl), extra: WEBRTC }));
    const section = relays.map((relay, i) => `  r${i}: ${relay.api}\n`).join('');

    const started = performance.now();
    consoleEngine = await startBenchEngine({ streams: '', extra: `${WEBRTC}relays:\n${section}` });
    const listening = performance.now();
    const client = await consoleClient(consoleEngine.api);
    let toldAt: number | undefined;
    client.on('relays', 'onStreams', (payload) => {
      if (toldAt === undefined && complete(payload as RelayStreamsList)) toldAt = performance.now();
    });
    let listedAt: number | undefined;
    // A small run can be listed complete before the subscription: no event follows an unchanged list.
    const toldOrGivenUp = () => toldAt !== undefined || (listedAt !== undefined && performance.now() - listedAt > 10_000);
    while (listedAt === undefined || !toldOrGivenUp()) {
      if (performance.now() - started > 120_000) throw new Error('the relays were not all listed within 120 s');
      if (listedAt === undefined) {
        const answer = await client.call('relays', 'streams');
        if (answer.ok && complete(answer.value as RelayStreamsList)) listedAt = performance.now();
      }
      await sleep(20);
    }

    const pid = consoleEngine.process.pid!;
    const cpuBefore = cpuSeconds(pid);
    const windowStart = performance.now();
    let rssMax = rssMiB(pid);
    while (performance.now() - windowStart < idleSeconds * 1000) {
      await sleep(500);
      rssMax = Math.max(rssMax, rssMiB(pid));
    }
    const cpuPercent = ((cpuSeconds(pid) - cpuBefore) / ((performance.now() - windowStart) / 1000)) * 100;

    const relayRss = relays.reduce((sum, relay) => sum + rssMiB(relay.process.pid!), 0);
    console.log(
      `relays: ${relayCount} processes × ${streamCount} streams = ${relayCount * streamCount} streams (relays' RSS together ${relayRss.toFixed(0)} MiB)`,
    );
    console.log(`console listening after      ${(listening - started).toFixed(0)} ms`);
    console.log(`every relay's streams listed ${(listedAt - started).toFixed(0)} ms after the console's start (relays.streams)`);
    console.log(
      toldAt === undefined
        ? '                   and told  before the subscription (no onStreams after it)'
        : `                   and told  ${(toldAt - started).toFixed(0)} ms after it (onStreams)`,
    );
    console.log(`console idle over ${idleSeconds} s: CPU ${cpuPercent.toFixed(1)} % of a core, RSS up to ${rssMax.toFixed(0)} MiB`);

    if (cameraEngine) {
      progress('camera publishing; opening the live view in Chromium');
      await publishCamera(cameraEngine, cameraUrl);
      const ids = relays.slice(0, tileCount).map((_, i) => remoteStreamSource(`r${i}`, 'cam0'));
      printTiles(await measureRemoteTiles(client, consoleEngine.api, pid, ids, numbers['tiles-seconds'], tilesMode));
    }
    client.close();
    console.log(`load average (1, 5, 15 min): ${load(loadAtStart)} at the start, ${load(loadavg())} at the end (${cores()} cores)`);
  } finally {
    await consoleEngine?.stop();
    await cameraEngine?.stop();
    await Promise.all(relays.map((relay) => relay.stop()));
  }
}

async function chain(): Promise<void> {
  const loadAtStart = loadavg();
  const result = await runChains({ viewers: numbers.viewers, seconds: numbers.seconds, rounds: numbers.rounds, children, progress });
  printChain(result, numbers);
  console.log(`load average (1, 5, 15 min): ${load(loadAtStart)} at the start, ${load(loadavg())} at the end (${cores()} cores)`);
}

await (values.chain ? chain() : listAndIdle());
