// Many relays, one console: N relay processes of this app (headless, loopback, the emulators
// off, S synthetic streams each whose sources are never dialed) listed in the console's
// `relays:`, and the console (the built headless app, a process of its own) polling them.
//
// Prints how long the console takes, from its start, until every relay's streams are listed
// (the `relays.streams` answer over the console's own WebSocket contract, as the renderer asks
// it, and the `onStreams` event that tells it), then the console's CPU (% of one core, user +
// system from /proc) and RSS while idle with N × S streams known, over a window of several
// poll rounds, and the machine's load average.
//
//   npm run bench:relays [-- --relays 20 --streams 25 --idle 30]
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { CONSOLE_SOCKET_PATH, CONSOLE_SOCKET_PROTOCOL, SESSION_TOKEN_META, tokenProtocol } from '../src-shared/contract/wire';
import { startBenchEngine, type BenchEngine } from './lib/engine';
import { cpuSeconds, rssMiB } from './process-stats';

const { values } = parseArgs({
  options: {
    relays: { type: 'string', default: '20' },
    streams: { type: 'string', default: '25' },
    idle: { type: 'string', default: '30' },
  },
});
const relayCount = Number(values.relays);
const streamCount = Number(values.streams);
const idleSeconds = Number(values.idle);
for (const [name, value] of Object.entries({ relays: relayCount, streams: streamCount, idle: idleSeconds })) {
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} is a whole number of at least 1`);
}
/** Each process its own WebRTC port: 21 of them side by side. */
const WEBRTC = 'webrtc:\n  listen: 127.0.0.1:0\n';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type RelayStreamsList = Array<{ relay: string; streams: Array<{ name: string }> }>;
const complete = (list: RelayStreamsList | undefined) =>
  list !== undefined && list.length === relayCount && list.every((r) => r.streams.length === streamCount);

/** The console's contract over its WebSocket, as the renderer reaches it headless. */
async function consoleClient(api: string) {
  const page = await (await fetch(`${api}/`)).text();
  const token = new RegExp(`<meta name="${SESSION_TOKEN_META}" content="([^"]+)"`).exec(page)?.[1];
  if (!token) throw new Error('the console page carries no session token (is the renderer built?)');
  const ws = new WebSocket(`${api.replace(/^http/, 'ws')}${CONSOLE_SOCKET_PATH}`, [CONSOLE_SOCKET_PROTOCOL, tokenProtocol(token)]);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let nextId = 1;
  const pending = new Map<number, (result: { ok: boolean; value?: unknown }) => void>();
  const listeners: Array<(payload: unknown) => void> = [];
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as {
      type: string;
      id?: number;
      result?: { ok: boolean; value?: unknown };
      event?: string;
      payload?: unknown;
    };
    if (frame.type === 'result') pending.get(frame.id!)?.(frame.result!);
    if (frame.type === 'event' && frame.event === 'onStreams') for (const listener of listeners) listener(frame.payload);
  });
  return {
    call: (method: string) =>
      new Promise<{ ok: boolean; value?: unknown }>((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        ws.send(JSON.stringify({ type: 'call', id, service: 'relays', method }));
      }),
    onStreams(listener: (payload: unknown) => void) {
      listeners.push(listener);
      ws.send(JSON.stringify({ type: 'subscribe', service: 'relays', event: 'onStreams' }));
    },
    close: () => ws.close(),
  };
}

async function main(): Promise<void> {
  const loadAtStart = loadavg();
  const streams = Array.from({ length: streamCount }, (_, i) => `  cam${i}: rtsp://127.0.0.1:9/cam${i}\n`).join('');
  const relays: BenchEngine[] = [];
  let consoleEngine: BenchEngine | undefined;
  try {
    console.log(`starting ${relayCount} relays with ${streamCount} streams each ...`);
    for (let i = 0; i < relayCount; i++) relays.push(await startBenchEngine({ streams, extra: WEBRTC }));
    const section = relays.map((relay, i) => `  r${i}: ${relay.api}\n`).join('');

    const started = performance.now();
    consoleEngine = await startBenchEngine({ streams: '', extra: `${WEBRTC}relays:\n${section}` });
    const listening = performance.now();
    const client = await consoleClient(consoleEngine.api);
    let toldAt: number | undefined;
    client.onStreams((payload) => {
      if (toldAt === undefined && complete(payload as RelayStreamsList)) toldAt = performance.now();
    });
    let listedAt: number | undefined;
    while (listedAt === undefined || toldAt === undefined) {
      if (performance.now() - started > 120_000) throw new Error('the relays were not all listed within 120 s');
      if (listedAt === undefined) {
        const answer = await client.call('streams');
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
    client.close();

    const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(', ');
    const relayRss = relays.reduce((sum, relay) => sum + rssMiB(relay.process.pid!), 0);
    console.log(
      `relays: ${relayCount} processes × ${streamCount} streams = ${relayCount * streamCount} streams (relays' RSS together ${relayRss.toFixed(0)} MiB)`,
    );
    console.log(`console listening after      ${(listening - started).toFixed(0)} ms`);
    console.log(`every relay's streams listed ${(listedAt - started).toFixed(0)} ms after the console's start (relays.streams)`);
    console.log(`                   and told  ${(toldAt - started).toFixed(0)} ms after it (onStreams)`);
    console.log(`console idle over ${idleSeconds} s: CPU ${cpuPercent.toFixed(1)} % of a core, RSS up to ${rssMax.toFixed(0)} MiB`);
    console.log(
      `load average (1, 5, 15 min): ${load(loadAtStart)} at the start, ${load(loadavg())} at the end (${readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length ?? '?'} cores)`,
    );
  } finally {
    await consoleEngine?.stop();
    await Promise.all(relays.map((relay) => relay.stop()));
  }
}

await main();
