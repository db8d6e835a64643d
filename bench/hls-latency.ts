// Glass-to-glass delay of HLS in Chromium through hls.js: Low-Latency HLS (hls.js's default
// low-latency mode: parts, blocking reloads) next to the same hls.js playing the same session
// kind as classic HLS (lowLatencyMode off), and Chromium's own HLS player (<video src=…m3u8>,
// whole segments), in the same run, on the same camera.
//
// The camera (ffmpeg, 320x240 25 fps H.264, a keyframe a second) paints the whole picture one of
// eight grey levels, changing every second. A reference viewer reads the relay's RTSP output
// and notes when each level arrives; the page samples each video frame it shows and notes when
// each level is on screen. The delay is the difference for the same change, so it holds
// everything between the relay's input and the screen (the reference viewer's own decode of a
// frame, a few ms, is counted on the camera's side).
//
//   npm run bench:hls-latency [-- --seconds 40]
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { startBenchEngine } from './lib/engine';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '40' } } });
const seconds = Number(values.seconds);
const HLS_JS = fileURLToPath(new URL('../node_modules/hls.js/dist/hls.min.js', import.meta.url));
const LEVELS = 8;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Change {
  level: number;
  at: number;
}

/** Grey-level changes as the relay's RTSP output delivers them (wall-clock ms). */
function watchReference(rtspUrl: string, changes: Change[]): ChildProcess {
  // No probing and no buffering: once running, each frame is decoded and written as it comes.
  // A 2x2 picture in yuv420p is 4 luma bytes and 2 chroma bytes, with no range conversion.
  const viewer = spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-probesize',
      '32',
      '-analyzeduration',
      '0',
      '-fflags',
      'nobuffer',
      '-flags',
      'low_delay',
      '-rtsp_transport',
      'tcp',
      '-i',
      rtspUrl,
      '-an',
      '-vf',
      'scale=2:2',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'yuv420p',
      '-flush_packets',
      '1',
      'pipe:1',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let last = -1;
  let pending = Buffer.alloc(0);
  viewer.stdout.on('data', (bytes: Buffer) => {
    const at = Date.now();
    pending = Buffer.concat([pending, bytes]);
    for (; pending.length >= 6; pending = pending.subarray(6)) {
      const level = Math.round((pending[0]! - 16) / 28) % LEVELS;
      if (level !== last) changes.push({ level, at });
      last = level;
    }
  });
  return viewer;
}

/** Per change seen on screen: ms since the reference saw the same change (the latest one before it). */
function delays(reference: Change[], screen: Change[]): number[] {
  const out: number[] = [];
  for (const shown of screen) {
    const source = reference.filter((r) => r.level === shown.level && r.at <= shown.at && shown.at - r.at < LEVELS * 1000 - 500).at(-1);
    if (source) out.push(shown.at - source.at);
  }
  return out;
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

async function main(): Promise<void> {
  const engine = await startBenchEngine();
  const { api } = engine;
  const rtspUrl = engine.rtspUrl('cam');
  const children: ChildProcess[] = [];
  try {
    children.push(
      spawn(
        'ffmpeg',
        [
          '-hide_banner',
          '-loglevel',
          'error',
          '-re',
          '-f',
          'lavfi',
          '-i',
          `color=c=black:s=320x240:r=25,format=yuv420p,geq=lum='16+28*mod(floor(T)\\,${LEVELS})':cb=128:cr=128`,
          '-c:v',
          'libx264',
          '-preset',
          'ultrafast',
          '-tune',
          'zerolatency',
          '-g',
          '25',
          '-bf',
          '0',
          '-f',
          'rtsp',
          '-rtsp_transport',
          'tcp',
          rtspUrl,
        ],
        { stdio: 'ignore' },
      ),
    );
    // The reference viewer joins once the camera is publishing (before, the stream has no source).
    await sleep(2000);
    const reference: Change[] = [];
    children.push(watchReference(rtspUrl, reference));
    for (let waited = 0; reference.length < 2 && waited < 15_000; waited += 250) await sleep(250);
    if (reference.length < 2) throw new Error('the reference RTSP viewer saw no change of picture: is the camera publishing?');

    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'],
    });
    const rows: string[] = [];
    try {
      const players = [
        ['hls.js, Low-Latency HLS (parts)', 'low-latency'],
        ['hls.js, classic HLS (peer)', 'classic'],
        ["Chromium's own HLS player", 'native'],
      ] as const;
      for (const [name, mode] of players) {
        const page = await browser.newPage();
        await page.goto(`${api}/api`);
        await page.setContent('<!doctype html><video id="v" muted autoplay playsinline></video>');
        await page.addScriptTag({ path: HLS_JS });
        const started = Date.now();
        await page.evaluate(
          ({ url, mode, levels }) => {
            const w = window as unknown as {
              Hls: new (config: object) => { loadSource(u: string): void; attachMedia(v: HTMLVideoElement): void };
              changes: { level: number; at: number }[];
            };
            const video = document.getElementById('v') as HTMLVideoElement;
            const canvas = document.createElement('canvas');
            canvas.width = canvas.height = 1;
            const context = canvas.getContext('2d', { willReadFrequently: true })!;
            w.changes = [];
            let last = -1;
            const onFrame = (_now: number, meta: { expectedDisplayTime: number }) => {
              context.drawImage(video, 0, 0, 1, 1);
              // Full-range RGB of a limited-range grey: 16 + 28 k becomes about 32.6 k.
              const level = Math.round(context.getImageData(0, 0, 1, 1).data[0]! / 32.6) % levels;
              if (level !== last) w.changes.push({ level, at: performance.timeOrigin + meta.expectedDisplayTime });
              last = level;
              video.requestVideoFrameCallback(onFrame);
            };
            video.requestVideoFrameCallback(onFrame);
            if (mode === 'native') {
              video.src = url;
              return;
            }
            const hls = new w.Hls({ lowLatencyMode: mode === 'low-latency' });
            hls.loadSource(url);
            hls.attachMedia(video);
          },
          { url: `${api}/api/stream.m3u8?src=cam&mp4`, mode, levels: LEVELS },
        );
        await sleep(seconds * 1000);
        // The first changes on screen are the start (the player catching up), not the steady delay.
        const screen = (await page.evaluate(() => (window as unknown as { changes: { level: number; at: number }[] }).changes)).filter(
          (c) => c.at > started + 8000,
        );
        await page.close();
        const measured = delays(reference, screen);
        if (measured.length === 0) throw new Error(`${name}: no grey-level change matched on screen (${screen.length} seen)`);
        rows.push(
          `| ${name.padEnd(32)} | ${String(measured.length).padStart(7)} | ${percentile(measured, 0.5).toFixed(0).padStart(8)} | ${percentile(measured, 0.9).toFixed(0).padStart(8)} |`,
        );
      }
    } finally {
      await browser.close();
    }
    console.log(
      `\nglass-to-glass delay in Chromium (relay input → screen), 320x240 25 fps H.264, keyframe every 1 s, ${seconds} s per player, first 8 s left out\n`,
    );
    console.log('| player                           | changes | p50, ms  | p90, ms  |');
    console.log('|----------------------------------|---------|----------|----------|');
    for (const row of rows) console.log(row);
  } finally {
    for (const child of children) child.kill('SIGKILL');
    await engine.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
