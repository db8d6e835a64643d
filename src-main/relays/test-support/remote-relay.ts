import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEngine, type Engine } from '@main/engine/engine';
import { configSchemas } from '@main/engine/modules';
import { relayModule } from '@main/relay/relay-module';
import { freePort } from '@main/test-support/free-port';

/** Another instance of this app, headless on loopback, as a remote relay of the console under test. */
export interface RemoteRelay {
  url: string;
  apiPort: number;
  rtspPort: number;
  dir: string;
  engine: Engine;
  /** Stops it, leaving its folder for a start again on the same ports. */
  stop(): Promise<void>;
  /** Stops it (when running) and removes its folder. */
  remove(): Promise<void>;
}

export interface RemoteRelayOptions {
  /** The YAML body of `streams:` (lines indented by two spaces). */
  streams?: string;
  /** More `api:` keys, indented by two spaces (a login). */
  api?: string;
  /** A stopped relay's folder and ports: it starts again where it was. */
  again?: Pick<RemoteRelay, 'dir' | 'apiPort' | 'rtspPort'>;
}

/**
 * Starts the relay engine of this app with a config of its own, on ports fixed up front so that
 * it can be stopped and started again at the same address (a relay that goes down and returns).
 */
export async function startRemoteRelay(options: RemoteRelayOptions = {}): Promise<RemoteRelay> {
  const dir = options.again?.dir ?? (await mkdtemp(join(tmpdir(), 'relay-console-remote-')));
  const apiPort = options.again?.apiPort ?? (await freePort());
  const rtspPort = options.again?.rtspPort ?? (await freePort());
  const configPath = join(dir, 'relay-console.yaml');
  if (!existsSync(configPath)) {
    await writeFile(
      configPath,
      `data_dir: ./data\napi:\n  listen: 127.0.0.1:${apiPort}\n${options.api ?? ''}rtsp:\n  listen: 127.0.0.1:${rtspPort}\n` +
        `webrtc:\n  listen: 127.0.0.1:0\nlog:\n  level: error\nstreams:\n${options.streams ?? ''}`,
    );
  }
  const engine = await startEngine({
    runtime: 'headless',
    version: 'test',
    modules: [relayModule],
    configPath,
    env: {},
    logSink: { write: () => undefined },
    configSchemas,
  });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await engine.close();
  };
  return {
    url: `http://127.0.0.1:${apiPort}`,
    apiPort,
    rtspPort,
    dir,
    engine,
    stop,
    async remove() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
