import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { startTestEngine, type TestEngine } from '../../engine/test-engine';
import { relayModule } from '../relay-module';
import { holdFor, waitUntil } from '../../test-support/time';

export interface RelayUnderTest {
  running: TestEngine;
  api: string;
  rtspPort: number;
  rtspUrl(path: string): string;
  stop(): Promise<void>;
}

/**
 * A real engine with the relay on free ports; `streams` is the YAML body of `streams:`.
 * `rtspOptions` and `apiOptions` are more `rtsp:` and `api:` keys, indented by two spaces (e.g. `  username: x\n`).
 */
export async function startRelay(streams = '', extra = '', rtspPort = 0, rtspOptions = '', apiOptions = ''): Promise<RelayUnderTest> {
  // Tests run side by side: the shared WebRTC port is a free one unless a test sets its own.
  const webrtc = /^webrtc:/m.test(extra) ? '' : 'webrtc:\n  listen: 127.0.0.1:0\n';
  const running = await startTestEngine({
    modules: [relayModule],
    config: `# relay test config\ndata_dir: ./data\napi:\n  listen: 127.0.0.1:0\n${apiOptions}rtsp:\n  listen: 127.0.0.1:${rtspPort}\n${rtspOptions}${webrtc}log:\n  level: error\n${extra}streams:\n${streams}`,
  });
  const api = running.engine.url;
  // An API with a login (apiOptions) is asked with it.
  const login = [/username: (\S+)/.exec(apiOptions)?.[1], /password: (\S+)/.exec(apiOptions)?.[1]];
  const headers: Record<string, string> = login[0]
    ? { Authorization: `Basic ${Buffer.from(`${login[0]}:${login[1] ?? ''}`).toString('base64')}` }
    : {};
  const info = (await (await fetch(`${api}/api`, { headers })).json()) as { rtsp: { listen: string } };
  const boundPort = Number(info.rtsp.listen.split(':').pop());
  return { running, api, rtspPort: boundPort, rtspUrl: (path) => `rtsp://127.0.0.1:${boundPort}/${path}`, stop: () => running.stop() };
}

/** ffmpeg publishing a 320x240 25 fps H264 test pattern with AAC sine audio over RTSP/TCP, a keyframe every `gop` frames. */
export function publishTestPattern(url: string, seconds = 30, gop = 25): ChildProcess {
  return spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-re',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=320x240:rate=25:duration=${seconds}`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:sample_rate=44100:duration=${seconds}`,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-tune',
      'zerolatency',
      '-g',
      String(gop),
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '64k',
      '-f',
      'rtsp',
      '-rtsp_transport',
      'tcp',
      url,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
}

export function run(command: string, args: string[], timeoutMs = 20_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Streams, codecs and size as ffprobe reads them from a URL. */
export async function probe(url: string): Promise<Array<{ codec_name: string; codec_type: string; width?: number; height?: number }>> {
  const result = await run('ffprobe', [
    '-v',
    'error',
    '-rtsp_transport',
    'tcp',
    '-show_entries',
    'stream=codec_name,codec_type,width,height',
    '-of',
    'json',
    url,
  ]);
  if (result.code !== 0) throw new Error(`ffprobe failed: ${result.stderr}`);
  return (JSON.parse(result.stdout) as { streams: Array<{ codec_name: string; codec_type: string; width?: number; height?: number }> })
    .streams;
}

/** Video frames ffmpeg decodes from `url` in `seconds`. */
export async function countFrames(url: string, seconds: number): Promise<number> {
  const result = await run(
    'ffmpeg',
    ['-hide_banner', '-rtsp_transport', 'tcp', '-i', url, '-t', String(seconds), '-map', '0:v', '-f', 'null', '-'],
    (seconds + 15) * 1000,
  );
  const frames = [...result.stderr.matchAll(/frame=\s*(\d+)/g)].map((m) => Number(m[1]));
  return frames.at(-1) ?? 0;
}

export async function waitFor<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until a stream's publisher (or source) has announced its medias. */
export function waitForMedia(relay: RelayUnderTest, stream: string, timeoutMs = 10_000): Promise<true> {
  return waitFor(async () => {
    const info = (await (await fetch(`${relay.api}/api/streams?src=${stream}`)).json()) as { producers: Array<{ medias?: string[] }> };
    return info.producers.some((p) => p.medias?.length) ? true : undefined;
  }, timeoutMs);
}

/**
 * Waits until something on this machine listens on TCP `port`, without connecting to it (a
 * server such as `ffmpeg -listen 1` takes one connection only). Reads the kernel's socket tables;
 * where there are none (not Linux), gives the program half a second.
 */
export async function whenListening(port: number, timeoutMs = 10_000): Promise<void> {
  const tables = ['/proc/net/tcp', '/proc/net/tcp6'].filter((file) => existsSync(file));
  if (tables.length === 0) return void (await holdFor(500));
  // Each row: "sl local_address(hex ip:hex port) rem_address st ..."; st 0A is LISTEN.
  const listening = () =>
    tables.some((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .some((row) => {
          const [, local, , state] = row.trim().split(/\s+/);
          return state === '0A' && Number.parseInt(local?.split(':')[1] ?? '', 16) === port;
        }),
    );
  await waitUntil(listening, { timeout: timeoutMs, interval: 50, what: `a server on port ${port}` });
}
