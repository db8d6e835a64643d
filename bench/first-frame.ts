// Time to first byte and to first decodable frame of each HTTP output, on a running stream (a
// 720p H264 + AAC camera published into the relay), next to ffmpeg remuxing the same RTSP
// stream to fragmented MP4 in the same run.
//
// "First decodable frame" is when the client holds enough bytes for a decoder to show a picture:
// MP4: the init segment and the first complete fragment; HLS: the first segment, after the master
// and media playlists; JPEG: the whole body; MJPEG: the first whole part. The bytes counted as
// a frame are checked once per output with ffprobe, so the figures are about pictures, not bytes.
//
//   npm run bench:first-frame [-- --runs 5]
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { startBenchEngine } from './lib/engine';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Timing {
  firstByteMs: number;
  firstFrameMs: number;
  frameBytes: Buffer;
}

/** Box sizes of an ISO BMFF byte run: true once it holds a moov and a complete moof + mdat. */
function hasInitAndFragment(bytes: Buffer): boolean {
  let at = 0;
  let moov = false;
  let moof = false;
  while (at + 8 <= bytes.length) {
    const size = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (size < 8 || at + size > bytes.length) return false;
    if (type === 'moov') moov = true;
    if (type === 'moof') moof = true;
    if (type === 'mdat' && moov && moof) return true;
    at += size;
  }
  return false;
}

/** Reads a stream of bytes until `done(bytes)` says a frame is in, timing the first byte and that moment. */
async function timeStream(
  start: number,
  body: AsyncIterable<Uint8Array>,
  done: (bytes: Buffer) => Buffer | undefined,
  cancel: () => void,
): Promise<Timing> {
  let firstByteMs = NaN;
  let bytes = Buffer.alloc(0);
  let result: Timing | undefined;
  for await (const chunk of body) {
    if (Number.isNaN(firstByteMs)) firstByteMs = performance.now() - start;
    bytes = Buffer.concat([bytes, chunk]);
    const frame = done(bytes);
    if (frame) {
      result = { firstByteMs, firstFrameMs: performance.now() - start, frameBytes: frame };
      break;
    }
  }
  // Leaving the loop cancels the body; the connection goes after that.
  cancel();
  if (!result) throw new Error('the output ended before a frame');
  return result;
}

async function timeHttp(url: string, done: (bytes: Buffer) => Buffer | undefined): Promise<Timing> {
  const abort = new AbortController();
  const start = performance.now();
  const response = await fetch(url, { signal: abort.signal });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
  const body = response.body as unknown as AsyncIterable<Uint8Array>;
  return timeStream(start, body, done, () => abort.abort());
}

const mp4Done = (bytes: Buffer) => (hasInitAndFragment(bytes) ? bytes : undefined);

/** multipart/x-mixed-replace: the first part whose JPEG is whole (Content-Length or EOI). */
function mjpegDone(bytes: Buffer): Buffer | undefined {
  const soi = bytes.indexOf(Buffer.from([0xff, 0xd8]));
  if (soi < 0) return undefined;
  const eoi = bytes.indexOf(Buffer.from([0xff, 0xd9]), soi);
  return eoi < 0 ? undefined : bytes.subarray(soi, eoi + 2);
}

async function timeHls(api: string): Promise<Timing> {
  const start = performance.now();
  const master = await fetch(`${api}/api/stream.m3u8?src=cam`);
  const firstByteMs = performance.now() - start;
  const masterText = await master.text();
  const mediaUri = masterText
    .split('\n')
    .find((l) => l.trim() && !l.startsWith('#'))!
    .trim();
  const media = await (await fetch(new URL(mediaUri, `${api}/api/`))).text();
  const segmentUri = media
    .split('\n')
    .find((l) => l.trim() && !l.startsWith('#'))!
    .trim();
  const segment = Buffer.from(await (await fetch(new URL(segmentUri, `${api}/api/hls/`))).arrayBuffer());
  return { firstByteMs, firstFrameMs: performance.now() - start, frameBytes: segment };
}

async function timeFfmpegRemux(rtspUrl: string): Promise<Timing> {
  const start = performance.now();
  const ffmpeg = spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-rtsp_transport',
      'tcp',
      '-i',
      rtspUrl,
      '-c',
      'copy',
      '-f',
      'mp4',
      '-movflags',
      'frag_keyframe+empty_moov+default_base_moof',
      'pipe:1',
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  try {
    return await timeStream(start, ffmpeg.stdout, mp4Done, () => ffmpeg.kill('SIGKILL'));
  } finally {
    ffmpeg.kill('SIGKILL');
  }
}

/** ffprobe reads a video frame of the given size from the bytes counted as the first frame. */
async function checkDecodes(name: string, bytes: Buffer): Promise<string> {
  const probe = spawn(
    'ffprobe',
    [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-count_frames',
      '-show_entries',
      'stream=codec_name,width,height,nb_read_frames',
      '-of',
      'csv=p=0',
      '-i',
      'pipe:0',
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let out = '';
  probe.stdout.on('data', (d: Buffer) => (out += d.toString()));
  probe.stdin.on('error', () => undefined);
  probe.stdin.end(bytes);
  await new Promise((resolve) => probe.on('close', resolve));
  if (!/\d+,\d+/.test(out))
    throw new Error(`${name}: the bytes counted as the first frame do not decode (${out.trim() || 'ffprobe read nothing'})`);
  return out.trim().split('\n')[0]!.trim();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main(): Promise<void> {
  const engine = await startBenchEngine();
  const { api } = engine;
  const rtspUrl = engine.rtspUrl('cam');
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
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-tune',
      'zerolatency',
      '-b:v',
      '2M',
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
  // A viewer keeps the stream running, as on a console with a live tile open.
  const viewer = spawn(
    'ffmpeg',
    ['-hide_banner', '-loglevel', 'error', '-rtsp_transport', 'tcp', '-i', rtspUrl, '-c', 'copy', '-f', 'null', '-'],
    { stdio: 'ignore' },
  );
  await sleep(4000);

  const outputs: Array<[string, () => Promise<Timing>]> = [
    ['stream.mp4', () => timeHttp(`${api}/api/stream.mp4?src=cam`, mp4Done)],
    ['stream.m3u8 (first segment)', () => timeHls(api)],
    // Before any snapshot: the transcoder's own start.
    ['stream.mjpeg (no snapshot yet)', () => timeHttp(`${api}/api/stream.mjpeg?src=cam`, mjpegDone)],
    ['frame.jpeg', () => timeWhole(`${api}/api/frame.jpeg?src=cam`)],
    // Within 30 s of a snapshot (a console tile's poster): the snapshot decoder is up.
    ['stream.mjpeg (after a snapshot)', () => timeHttp(`${api}/api/stream.mjpeg?src=cam`, mjpegDone)],
    ['ffmpeg RTSP → fMP4 (peer)', () => timeFfmpegRemux(rtspUrl)],
  ];
  const rows: string[] = [];
  try {
    for (const [name, measure] of outputs) {
      const timings: Timing[] = [];
      for (let i = 0; i < runs; i++) {
        timings.push(await measure());
        await sleep(300);
      }
      const decoded = await checkDecodes(name, timings[0]!.frameBytes);
      rows.push(
        `| ${name.padEnd(31)} | ${median(timings.map((t) => t.firstByteMs))
          .toFixed(1)
          .padStart(8)} | ${median(timings.map((t) => t.firstFrameMs))
          .toFixed(1)
          .padStart(9)} | ${decoded.padEnd(24)} |`,
      );
      // HLS sessions and MJPEG transcoders wind down between outputs.
      await sleep(1000);
    }
  } finally {
    camera.kill('SIGKILL');
    viewer.kill('SIGKILL');
    await engine.stop();
  }
  console.log(`\nfirst byte and first decodable frame, median of ${runs} runs, 720p25 H264 2 Mbit/s + AAC, GOP 2 s\n`);
  console.log('| output                          | byte, ms | frame, ms | first frame (ffprobe)    |');
  console.log('|---------------------------------|----------|-----------|--------------------------|');
  for (const row of rows) console.log(row);
}

/** A whole-body output (frame.jpeg): the frame is in when the body is. */
async function timeWhole(url: string): Promise<Timing> {
  const start = performance.now();
  const response = await fetch(url);
  const firstByteMs = performance.now() - start;
  const bytes = Buffer.from(await response.arrayBuffer());
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${bytes.toString()}`);
  return { firstByteMs, firstFrameMs: performance.now() - start, frameBytes: bytes };
}

await main();
