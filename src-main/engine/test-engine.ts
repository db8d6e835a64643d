import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEngine, type Engine } from './engine';
import type { EngineModule, Runtime } from './engine-context';
import type { LogSink } from '../platform/logger';
import { configSchemas } from './modules';

export interface TestEngine {
  engine: Engine;
  dir: string;
  configPath: string;
  logLines: string[];
  stop(): Promise<void>;
}

/**
 * Starts a real engine on a free loopback port with a config file in a fresh temp folder, for
 * integration tests of any module. `stop()` closes it and removes the folder.
 */
export async function startTestEngine(options: {
  modules: EngineModule[];
  config?: string;
  env?: Record<string, string>;
  runtime?: Runtime;
}): Promise<TestEngine> {
  const dir = await mkdtemp(join(tmpdir(), 'relay-console-test-'));
  const configPath = join(dir, 'relay-console.yaml');
  await writeFile(
    configPath,
    options.config ?? `data_dir: ./data\napi:\n  listen: 127.0.0.1:0\nwebrtc:\n  listen: 127.0.0.1:0\nlog:\n  level: warn\n`,
  );
  const logLines: string[] = [];
  const sink: LogSink = { write: (line) => logLines.push(line) };
  const engine = await startEngine({
    runtime: options.runtime ?? 'headless',
    version: 'test',
    modules: options.modules,
    configPath,
    env: options.env ?? {},
    listen: { host: '127.0.0.1', port: 0 },
    logSink: sink,
    configSchemas,
  }).catch(async (error: unknown) => {
    await rm(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    engine,
    dir,
    configPath,
    logLines,
    async stop() {
      await engine.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
