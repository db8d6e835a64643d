import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { appService } from '../../src-shared/contract/app';
import { createServiceClient } from '../../src-shared/contract/create-client';
import { CONSOLE_SOCKET_PATH } from '../../src-shared/contract/wire';
// The renderer's transport against a real engine: main is started here as a separate process
// would be, and imported only by this test (the renderer's code never imports main).
import { startEngine, type Engine } from '../../src-main/engine/engine';
import { appModule } from '../../src-main/app/app-module';
import { createConsoleModule } from '../../src-main/console/console-module';
import { createWebSocketTransport, type ConnectionState } from './transport-websocket';

const TOKEN = 'c'.repeat(64);

describe('renderer WebSocket transport', () => {
  let dir: string;
  const engines: Engine[] = [];
  afterAll(async () => {
    for (const engine of engines) await engine.close();
    await rm(dir, { recursive: true, force: true });
  });

  const start = async (port: number) => {
    dir ??= await mkdtemp(join(tmpdir(), 'rc-ws-'));
    const configPath = join(dir, 'c.yaml');
    await writeFile(configPath, 'data_dir: ./data\nlog:\n  level: error\n');
    const engine = await startEngine({
      runtime: 'headless',
      version: `v${engines.length + 1}`,
      modules: [appModule, createConsoleModule({ rendererDir: dir, sessionToken: TOKEN })],
      configPath,
      env: {},
      listen: { host: '127.0.0.1', port },
      logSink: { write: () => undefined },
    });
    engines.push(engine);
    return engine;
  };

  it('calls through the contract, and reconnects when main comes back', async () => {
    const first = await start(0);
    const states: ConnectionState[] = [];
    const transport = createWebSocketTransport({
      url: first.url.replace('http', 'ws') + CONSOLE_SOCKET_PATH,
      token: () => TOKEN,
      WebSocketImpl: WebSocket as unknown as typeof globalThis.WebSocket,
    });
    transport.onStateChange((s) => states.push(s));
    const app = createServiceClient(appService, transport);

    const info = await app.info();
    expect(info.ok && info.value.version).toBe('v1');

    await first.close();
    await expect.poll(() => transport.state).toBe('closed');
    const pending = app.info(); // made while main is away: sent once it is back
    await start(first.server.port);
    const again = await pending;
    expect(again.ok && again.value.version).toBe('v2');
    expect(states).toContain('open');
    transport.close();
  });

  it('is refused with a wrong token and keeps the caller informed', async () => {
    const engine = await start(0);
    const transport = createWebSocketTransport({
      url: engine.url.replace('http', 'ws') + CONSOLE_SOCKET_PATH,
      token: () => 'wrong',
      WebSocketImpl: WebSocket as unknown as typeof globalThis.WebSocket,
    });
    const states: ConnectionState[] = [];
    transport.onStateChange((s) => states.push(s));
    await expect.poll(() => states).toContain('closed');
    expect(states).not.toContain('open');
    transport.close();
  });
});
