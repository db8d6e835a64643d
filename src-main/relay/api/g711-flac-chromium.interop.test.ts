import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { WebSocket as NodeWebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBoxes, readBoxes } from '../media/containers/fmp4/box-reader';
import { relayInChromium } from '../test/chromium-kit';
import { waitForMedia } from '../test/relay-test-kit';

/** The camera's sound: seeded noise (so a run of it is found in one place only), 8 kHz mono. */
const SOUND = 'anoisesrc=sample_rate=8000:amplitude=0.4:color=pink:seed=35:duration=300';

/** ffmpeg's output as bytes, and what it said on stderr. */
function ffmpeg(args: string[], timeoutMs = 60_000): Promise<{ stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-v', 'error', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve({ stdout: Buffer.concat(out), stderr });
    });
  });
}

const samples = (bytes: Buffer) => new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));

/** The camera's sound as G.711 A-law bytes, then as ffmpeg decodes those bytes: what a lossless output must give back. */
async function referencePcm(): Promise<Int16Array> {
  const alaw = await ffmpeg(['-f', 'lavfi', '-i', SOUND, '-c:a', 'pcm_alaw', '-f', 'alaw', '-']);
  const decoded = spawn('ffmpeg', ['-hide_banner', '-v', 'error', '-f', 'alaw', '-ar', '8000', '-ac', '1', '-i', '-', '-f', 's16le', '-'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  decoded.stdin.end(alaw.stdout);
  const out: Buffer[] = [];
  for await (const chunk of decoded.stdout) out.push(chunk as Buffer);
  return samples(Buffer.concat(out));
}

/** Where `run` starts in `reference`, found by its first 64 samples; -1 when nowhere. */
function placeIn(reference: Int16Array, run: Int16Array): number {
  const head = run.subarray(0, 64);
  for (let at = 0; at + head.length <= reference.length; at++) {
    if (head.every((s, i) => reference[at + i] === s)) return at;
  }
  return -1;
}

/** The sample entry types of an init segment's tracks, and the dfLa box of a fLaC one. */
function sampleEntries(init: Uint8Array): { types: string[]; dfLa?: Uint8Array } {
  const entries = findBoxes(init, ['moov', 'trak', 'mdia', 'minf', 'stbl', 'stsd']).map((stsd) => readBoxes(stsd.body, 8)[0]!);
  const flac = entries.find((e) => e.type === 'fLaC');
  return { types: entries.map((e) => e.type), dfLa: flac && readBoxes(flac.body, 28).find((b) => b.type === 'dfLa')?.body };
}

/** STREAMINFO's rate (20 bits) and channels (3 bits), past dfLa's version/flags and block header. */
function streamInfoFormat(dfLa: Uint8Array): { sampleRate: number; channels: number } {
  const at = 8 + 10;
  return { sampleRate: (dfLa[at]! << 12) | (dfLa[at + 1]! << 4) | (dfLa[at + 2]! >> 4), channels: ((dfLa[at + 2]! >> 1) & 0x07) + 1 };
}

/** The first text answer of the WebSocket API to `message`, and the binaries that came with or before it. */
function askSocket(url: string, message: object, binaries = 0): Promise<{ text: { type: string; value: string }; binary: Buffer[] }> {
  return new Promise((resolve, reject) => {
    const socket = new NodeWebSocket(url);
    let text: { type: string; value: string } | undefined;
    const binary: Buffer[] = [];
    const timer = setTimeout(() => reject(new Error(`no answer to ${JSON.stringify(message)}`)), 20_000);
    const done = () => {
      if (!text || binary.length < binaries) return;
      clearTimeout(timer);
      socket.close();
      resolve({ text, binary });
    };
    socket.on('open', () => socket.send(JSON.stringify(message)));
    socket.on('message', (data, isBinary) => {
      if (isBinary) binary.push(data as Buffer);
      else text ??= JSON.parse(data.toString()) as { type: string; value: string };
      done();
    });
  });
}

/**
 * A G.711 camera (H.264 + A-law over RTSP, ffmpeg publishing into the relay) watched as
 * browsers and Safari do: over MSE and HLS with `flac` among the codecs, the relay writes its
 * sound as FLAC in fMP4, which Chromium decodes and ffmpeg decodes to the camera's A-law
 * decoded, sample for sample; without `flac`, the sound is left out instead of sent as alaw.
 */
describe('a G.711 camera over MSE and HLS: FLAC for players that take it', () => {
  const live = relayInChromium('  door:\n');
  let camera: ChildProcess | undefined;
  let reference: Int16Array;
  const ws = () => `${live.relay.api.replace('http', 'ws')}/api/ws?src=door`;

  beforeAll(async () => {
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
        'testsrc=size=320x240:rate=25',
        '-f',
        'lavfi',
        '-i',
        SOUND,
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-tune',
        'zerolatency',
        '-g',
        '25',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'pcm_alaw',
        '-f',
        'rtsp',
        '-rtsp_transport',
        'tcp',
        live.relay.rtspUrl('door'),
      ],
      { stdio: 'ignore' },
    );
    [reference] = await Promise.all([referencePcm(), waitForMedia(live.relay, 'door', 20_000)]);
  }, 60_000);
  afterAll(() => void camera?.kill('SIGKILL'));

  it("MSE with flac listed: an fLaC sample entry with dfLa, which Chromium's MediaSource plays with the picture", async () => {
    const supported = await live.page.evaluate(() => MediaSource.isTypeSupported('audio/mp4; codecs="flac"'));
    expect(supported).toBe(true);
    const started = await live.page.evaluate(playMse, ws());
    expect(started.mime).toMatch(/^video\/mp4; codecs="avc1\.[0-9A-Fa-f]{6},flac"$/);
    const { types, dfLa } = sampleEntries(Uint8Array.from(started.init));
    expect(types).toEqual(['avc1', 'fLaC']);
    expect(streamInfoFormat(dfLa!)).toEqual({ sampleRate: 8000, channels: 1 });

    const played = await live.page.waitForFunction(
      () => {
        const video = document.getElementById('mse') as HTMLVideoElement & { webkitAudioDecodedByteCount: number };
        return (
          video.currentTime > 1.5 &&
          video.webkitAudioDecodedByteCount > 0 && {
            width: video.videoWidth,
            audioBytes: video.webkitAudioDecodedByteCount,
            error: video.error,
          }
        );
      },
      undefined,
      { timeout: 30_000 },
    );
    const state = (await played.jsonValue()) as { width: number; audioBytes: number; error: unknown };
    expect(state).toMatchObject({ width: 320, error: null });
    // About 1.5 s of 8 kHz sound decoded to floats at least.
    expect(state.audioBytes).toBeGreaterThan(8000);
    await live.page.evaluate(() => (window as unknown as { mseSocket: WebSocket }).mseSocket.close());
  }, 90_000);

  it('MSE without flac: the picture alone, no alaw the browser cannot play', async () => {
    const { text, binary } = await askSocket(ws(), { type: 'mse', value: 'avc1.640029,mp4a.40.2' }, 1);
    expect(text.value).toMatch(/^video\/mp4; codecs="avc1\.[0-9A-Fa-f]{6}"$/);
    expect(sampleEntries(binary[0]!).types).toEqual(['avc1']);
  });

  it("HLS from /api/stream.m3u8?mp4=flac: segments whose FLAC ffmpeg decodes to the camera's A-law, sample for sample", async () => {
    const master = await (await fetch(`${live.relay.api}/api/stream.m3u8?src=door&mp4=flac`)).text();
    const playlist = new URL(master.trim().split('\n').pop()!, `${live.relay.api}/api/`).href;
    const media = await (await fetch(playlist)).text();
    const init = new Uint8Array(await (await fetch(new URL(/URI="([^"]+)"/.exec(media)![1]!, playlist))).arrayBuffer());
    expect(sampleEntries(init).types).toEqual(['avc1', 'fLaC']);

    // crccheck: ffmpeg's FLAC decoder checks every frame's CRC-16 too.
    const { stdout, stderr } = await ffmpeg(['-err_detect', 'crccheck', '-i', playlist, '-t', '3', '-map', '0:a', '-f', 's16le', '-']);
    expect(stderr).toBe('');
    const decoded = samples(stdout);
    expect(decoded.length).toBeGreaterThan(2 * 8000);
    const at = placeIn(reference, decoded);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(decoded).toEqual(reference.subarray(at, at + decoded.length));
  }, 60_000);

  it('HLS over the WebSocket with flac listed: a FLAC session, its master playlist naming fLaC as Apple spells it', async () => {
    const { text } = await askSocket(ws(), { type: 'hls', value: 'avc1.640029,mp4a.40.2,flac' });
    expect(text.type).toBe('hls');
    expect(text.value).toMatch(/CODECS="avc1\.[0-9a-fA-F]{6},fLaC"/);
    const uri = /^hls\/playlist\.m3u8\?id=[\w-]+$/m.exec(text.value)![0];
    const media = await (await fetch(`${live.relay.api}/api/${uri}`)).text();
    const init = new Uint8Array(await (await fetch(`${live.relay.api}/api/hls/${/URI="([^"]+)"/.exec(media)![1]}`)).arrayBuffer());
    expect(sampleEntries(init).types).toEqual(['avc1', 'fLaC']);
  });

  it('hls.js plays /api/stream.m3u8?mp4=flac in Chromium, picture and sound', async () => {
    const require = createRequire(import.meta.url);
    await live.page.addScriptTag({ path: require.resolve('hls.js/dist/hls.min.js') });
    await live.page.evaluate(playHls, `${live.relay.api}/api/stream.m3u8?src=door&mp4=flac`);
    const played = await live.page.waitForFunction(
      () => {
        const video = document.getElementById('hls') as HTMLVideoElement & { webkitAudioDecodedByteCount: number };
        return video.currentTime > 1 && video.webkitAudioDecodedByteCount > 0 && { width: video.videoWidth, error: video.error };
      },
      undefined,
      { timeout: 40_000 },
    );
    expect(await played.jsonValue()).toEqual({ width: 320, error: null });
    await live.page.evaluate(() => (window as unknown as { hls: { destroy(): void } }).hls.destroy());
  }, 90_000);

  it('HLS over the WebSocket without flac: a session with the picture only', async () => {
    const { text } = await askSocket(ws(), { type: 'hls', value: 'avc1.640029,mp4a.40.2' });
    const uri = /^hls\/playlist\.m3u8\?id=[\w-]+$/m.exec(text.value)![0];
    const media = await (await fetch(`${live.relay.api}/api/${uri}`)).text();
    const init = new Uint8Array(await (await fetch(`${live.relay.api}/api/hls/${/URI="([^"]+)"/.exec(media)![1]}`)).arrayBuffer());
    expect(sampleEntries(init).types).toEqual(['avc1']);
  });
});

/**
 * In the page: go2rtc's player's MSE mode with the codecs this Chromium plays. Resolves with the
 * MIME type the relay answered and the first binary message (the init segment); the socket
 * stays open on `window.mseSocket` while a muted <video id="mse"> plays.
 */
async function playMse(url: string): Promise<{ mime: string; init: number[] }> {
  const candidates = ['avc1.640029', 'avc1.64002A', 'avc1.640033', 'hvc1.1.6.L153.B0', 'mp4a.40.2', 'mp4a.40.5', 'flac', 'opus'];
  const codecs = candidates.filter((c) => MediaSource.isTypeSupported(`video/mp4; codecs="${c}"`)).join(',');
  const video = Object.assign(document.createElement('video'), { muted: true, autoplay: true, id: 'mse' });
  document.body.append(video);
  const source = new MediaSource();
  video.src = URL.createObjectURL(source);
  await new Promise((resolve) => source.addEventListener('sourceopen', resolve, { once: true }));
  const socket = new WebSocket(url);
  socket.binaryType = 'arraybuffer';
  (window as unknown as { mseSocket: WebSocket }).mseSocket = socket;
  const queue: ArrayBuffer[] = [];
  let buffer: SourceBuffer | undefined;
  const pump = () => buffer && !buffer.updating && queue.length > 0 && buffer.appendBuffer(queue.shift()!);
  return new Promise((resolve) => {
    let mime = '';
    let first = true;
    socket.onopen = () => socket.send(JSON.stringify({ type: 'mse', value: codecs }));
    socket.onmessage = (event) => {
      if (typeof event.data === 'string') {
        mime = (JSON.parse(event.data) as { value: string }).value;
        buffer = source.addSourceBuffer(mime);
        buffer.addEventListener('updateend', pump);
        return;
      }
      if (first) resolve({ mime, init: [...new Uint8Array(event.data as ArrayBuffer)] });
      first = false;
      queue.push(event.data as ArrayBuffer);
      pump();
    };
  });
}

/** In the page: hls.js (added to the page before) plays `url` in a muted <video id="hls">, kept on `window.hls`. */
function playHls(url: string): void {
  const video = Object.assign(document.createElement('video'), { muted: true, autoplay: true, id: 'hls' });
  document.body.append(video);
  const hls = new (window as unknown as { Hls: new () => { loadSource(u: string): void; attachMedia(v: HTMLVideoElement): void } }).Hls();
  hls.loadSource(url);
  hls.attachMedia(video);
  (window as unknown as { hls: typeof hls }).hls = hls;
}
