import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildMain } from '../../scripts/build.mjs';
import { ENGINE_V8_FLAGS, engineEnv } from '../../scripts/engine-flags.mjs';

/** The engine a benchmark measures, and where to reach it. */
export interface BenchEngine {
  process: ChildProcess;
  /** `http://127.0.0.1:<port>` of its API. */
  api: string;
  /** `rtsp://127.0.0.1:<port>/<stream>` on its RTSP server. */
  rtspUrl(stream: string): string;
  stop(): Promise<void>;
}

/**
 * The engine from the built bundle, started as `npm start` starts it (its V8 flags, plus
 * `flags`), in a fresh data folder: API and RTSP on free loopback ports, the emulators off, and
 * the streams given (by default one empty `cam` that a camera publishes to).
 */
export async function startBenchEngine(
  options: { flags?: string[]; streams?: string; /** More top-level config (YAML), e.g. `webrtc:` */ extra?: string } = {},
): Promise<BenchEngine> {
  await buildMain();
  const dir = await mkdtemp(join(tmpdir(), 'rc-bench-engine-'));
  const config = join(dir, 'relay.yaml');
  await writeFile(
    config,
    `data_dir: ./data\napi:\n  listen: 127.0.0.1:0\nrtsp:\n  listen: 127.0.0.1:0\nlog:\n  level: error\nstorage:\n  emulator:\n    enabled: false\ndirectory:\n  emulator:\n    enabled: false\n${options.extra ?? ''}streams:\n${options.streams ?? '  cam:\n'}`,
  );
  const engine = spawn(process.execPath, [...ENGINE_V8_FLAGS, ...(options.flags ?? []), 'dist/main/headless.js', '--config', config], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: engineEnv(),
  });
  const stop = async () => {
    if (engine.exitCode === null && engine.signalCode === null) {
      const exited = new Promise((resolve) => engine.once('exit', resolve));
      engine.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const api = await new Promise<string>((resolve, reject) => {
      engine.once('exit', (code) => reject(new Error(`the engine exited (${code}) before it listened`)));
      engine.stdout!.on('data', (d: Buffer) => {
        const match = /at (http:\/\/\S+)\//.exec(d.toString());
        if (match?.[1]) resolve(match[1]);
      });
    });
    const info = (await (await fetch(`${api}/api`)).json()) as { rtsp: { listen: string } };
    const rtspPort = info.rtsp.listen.split(':').pop();
    return { process: engine, api, rtspUrl: (stream) => `rtsp://127.0.0.1:${rtspPort}/${stream}`, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
