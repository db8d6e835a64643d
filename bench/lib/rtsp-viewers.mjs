// Light RTSP viewers for bench/relay-fanout, in a process of their own so their work is not
// counted as the server's and does not delay the camera's packets in the bench process.
// Each viewer: OPTIONS, DESCRIBE, SETUP of the first video track over TCP (interleaved) or UDP
// (`--transport udp`: an RTP and an RTCP socket of its own), PLAY, then it only reads RTP,
// counting packets and sequence gaps. A sample of viewers notes when each packet arrived, and
// each picture's last packet with its RTP timestamp (high-resolution wall clock), for the bench
// to work out the server's delay.
//
//   node bench/lib/rtsp-viewers.mjs --url rtsp://127.0.0.1:8554/cam --count 100 --warmup 3 --seconds 15 --sample 10 [--transport udp]
// Prints `MEASURE <from> <to>` around the measured window, then one JSON line with the results.
import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    count: { type: 'string', default: '1' },
    warmup: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '15' },
    sample: { type: 'string', default: '10' },
    transport: { type: 'string', default: 'tcp' },
  },
});
const udp = values.transport === 'udp';
const url = new URL(values.url);
const count = Number(values.count);
const sample = Number(values.sample);
const sampleEvery = sample > 0 ? Math.max(1, Math.floor(count / sample)) : 0;
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let measuring = false;

function viewer(index) {
  const sampled = sampleEvery > 0 && index % sampleEvery === 0;
  const state = {
    packets: 0,
    gaps: 0,
    lastSeq: -1,
    arrivals: sampled ? [] : undefined,
    pictures: sampled ? [] : undefined,
    playing: false,
    failed: undefined,
  };
  const socket = connect(Number(url.port), url.hostname);
  socket.setNoDelay(true);
  /** `rtp`: a packet's bytes, at `at` in it. */
  const onRtp = (rtp, at) => {
    const seq = rtp.readUInt16BE(at + 2);
    if (measuring) {
      state.packets++;
      if (state.lastSeq >= 0 && seq !== ((state.lastSeq + 1) & 0xffff)) state.gaps++;
      if (state.arrivals) {
        const arrived = now();
        state.arrivals.push(seq, arrived);
        if (rtp[at + 1] & 0x80) state.pictures.push(rtp.readUInt32BE(at + 4), arrived);
      }
    }
    state.lastSeq = seq;
  };
  let buffer = Buffer.alloc(0);
  let cseq = 0;
  let pending;
  const request = (method, target, headers = {}) =>
    new Promise((resolve) => {
      pending = resolve;
      const lines = [
        `${method} ${target} RTSP/1.0`,
        `CSeq: ${++cseq}`,
        'User-Agent: relay-fanout-bench',
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      ];
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
  socket.on('data', (chunk) => {
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    for (;;) {
      if (buffer.length === 0) return;
      if (buffer[0] === 0x24) {
        if (buffer.length < 4) return;
        const length = buffer.readUInt16BE(2);
        if (buffer.length < 4 + length) return;
        if (buffer[1] === 0 && length >= 12) onRtp(buffer, 4);
        buffer = buffer.subarray(4 + length);
        continue;
      }
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffer.subarray(0, end).toString();
      const bodyLength = Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
      if (buffer.length < end + 4 + bodyLength) return;
      const body = buffer.subarray(end + 4, end + 4 + bodyLength).toString();
      buffer = buffer.subarray(end + 4 + bodyLength);
      pending?.({ head, body });
    }
  });
  socket.on('error', (error) => (state.failed = error.message));
  state.ready = (async () => {
    await new Promise((resolve) => socket.once('connect', resolve));
    await request('OPTIONS', url.href);
    const described = await request('DESCRIBE', url.href, { Accept: 'application/sdp' });
    const base = /content-base:\s*(\S+)/i.exec(described.head)?.[1] ?? `${url.href}/`;
    const video = described.body.split(/\r?\nm=/).find((section) => section.startsWith('video'));
    const control = /a=control:(\S+)/.exec(video ?? '')?.[1] ?? '';
    const track = /^rtsp:/.test(control) ? control : new URL(control, base.endsWith('/') ? base : `${base}/`).href;
    let transport = 'RTP/AVP/TCP;unicast;interleaved=0-1';
    if (udp) {
      const rtp = await bindUdp(2 * 1024 * 1024);
      const rtcp = await bindUdp(0);
      rtp.on('message', (packet) => packet.length >= 12 && onRtp(packet, 0));
      state.udpSockets = [rtp, rtcp];
      transport = `RTP/AVP;unicast;client_port=${rtp.address().port}-${rtcp.address().port}`;
    }
    const setup = await request('SETUP', track, { Transport: transport });
    const session = /session:\s*([^;\r\n]+)/i.exec(setup.head)?.[1];
    if (!session) throw new Error(`SETUP answered ${setup.head.split('\r\n')[0]}`);
    await request('PLAY', url.href, { Session: session, Range: 'npt=0.000-' });
    state.playing = true;
  })().catch((error) => (state.failed = error.message));
  state.socket = socket;
  return state;
}

/** A UDP socket on loopback; `receiveBuffer` bytes of kernel buffer (0: the default). */
function bindUdp(receiveBuffer) {
  const socket = createSocket('udp4');
  return new Promise((resolve) =>
    socket.bind(0, '127.0.0.1', () => {
      if (receiveBuffer > 0) socket.setRecvBufferSize(receiveBuffer);
      resolve(socket);
    }),
  );
}

const viewers = [];
for (let i = 0; i < count; i++) {
  viewers.push(viewer(i));
  if (i % 10 === 9) await sleep(20);
}
await Promise.all(viewers.map((v) => v.ready));
await sleep(Number(values.warmup) * 1000);
const from = now();
measuring = true;
console.log(`MEASURE ${from}`);
await sleep(Number(values.seconds) * 1000);
measuring = false;
const to = now();
console.log(`MEASURED ${to}`);
const served = viewers.filter((v) => v.playing && v.packets > 0).length;
const result = {
  served,
  failed: viewers
    .filter((v) => v.failed)
    .map((v) => v.failed)
    .slice(0, 3),
  packets: viewers.reduce((sum, v) => sum + v.packets, 0),
  gaps: viewers.reduce((sum, v) => sum + v.gaps, 0),
  arrivals: viewers.filter((v) => v.arrivals).map((v) => v.arrivals),
  pictures: viewers.filter((v) => v.pictures).map((v) => v.pictures),
};
for (const v of viewers) {
  v.socket.destroy();
  for (const socket of v.udpSockets ?? []) socket.close();
}
// A long line to a pipe: exit only once it is written.
process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
