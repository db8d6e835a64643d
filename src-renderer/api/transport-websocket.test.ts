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
import type { ClientFrame } from '../../src-shared/contract/wire';
import {
  CONNECTION_LOST_MESSAGE,
  createWebSocketTransport,
  NOT_CONNECTED,
  NOT_CONNECTED_MESSAGE,
  type ConnectionState,
} from './transport-websocket';

/**
 * A socket the test opens, answers and closes by hand, recording what the transport sent: what
 * matters here is which calls reach the wire, and when.
 */
function fakeSockets() {
  const made: FakeSocket[] = [];
  class FakeSocket {
    static readonly CONNECTING = 0;
    static readonly OPEN = 1;
    static readonly CLOSED = 3;
    readyState = FakeSocket.CONNECTING;
    sent: ClientFrame[] = [];
    onopen: (() => void) | null = null;
    onclose: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onmessage: ((message: { data: string }) => void) | null = null;
    constructor() {
      made.push(this);
    }
    send(data: string) {
      this.sent.push(JSON.parse(data) as ClientFrame);
    }
    open() {
      this.readyState = FakeSocket.OPEN;
      this.onopen?.();
    }
    close() {
      this.readyState = FakeSocket.CLOSED;
      this.onclose?.();
    }
    answer(id: number, value: unknown) {
      this.onmessage?.({ data: JSON.stringify({ type: 'result', id, result: { ok: true, value } }) });
    }
  }
  const latest = async () => {
    await expect.poll(() => made.length).toBeGreaterThan(0);
    return made[made.length - 1]!;
  };
  return { made, latest, Impl: FakeSocket as unknown as typeof globalThis.WebSocket };
}

describe('renderer WebSocket transport never replays a call', () => {
  const calls = (socket: { sent: ClientFrame[] }) => socket.sent.filter((frame) => frame.type === 'call');

  it('refuses a call made while the socket is closed, and sends nothing of it on the next socket', async () => {
    const sockets = fakeSockets();
    const transport = createWebSocketTransport({ url: 'ws://relay.test/', token: () => 't', WebSocketImpl: sockets.Impl });
    const first = await sockets.latest();
    first.open();
    first.close();
    expect(transport.state).toBe('closed');
    const refused = await transport.call('relay', 'addStream', { name: 'cam', source: 'rtsp://x' });
    expect(refused).toEqual({ ok: false, error: { code: NOT_CONNECTED, message: NOT_CONNECTED_MESSAGE } });
    // Reconnect (the backoff's first step is 250 ms): the refused call is not sent.
    await expect.poll(() => sockets.made.length, { timeout: 2_000 }).toBe(2);
    const second = sockets.made[1]!;
    second.open();
    expect(transport.state).toBe('open');
    expect(calls(second)).toEqual([]);
    // A call made now goes out and is answered.
    const fresh = transport.call('relay', 'listStreams', undefined);
    expect(calls(second)).toMatchObject([{ service: 'relay', method: 'listStreams' }]);
    second.answer(calls(second)[0]!.id, []);
    expect(await fresh).toEqual({ ok: true, value: [] });
    transport.close();
  });

  it('ends a call whose socket closed before the answer, and does not send it again', async () => {
    const sockets = fakeSockets();
    const transport = createWebSocketTransport({ url: 'ws://relay.test/', token: () => 't', WebSocketImpl: sockets.Impl });
    const first = await sockets.latest();
    first.open();
    const inFlight = transport.call('relay', 'deleteStream', { name: 'cam' });
    expect(calls(first)).toHaveLength(1);
    first.close();
    expect(await inFlight).toEqual({ ok: false, error: { code: NOT_CONNECTED, message: CONNECTION_LOST_MESSAGE } });
    await expect.poll(() => sockets.made.length, { timeout: 2_000 }).toBe(2);
    sockets.made[1]!.open();
    expect(calls(sockets.made[1]!)).toEqual([]);
    transport.close();
  });

  it('holds calls made while the page first connects, and refuses them if that connection fails', async () => {
    const sockets = fakeSockets();
    const transport = createWebSocketTransport({ url: 'ws://relay.test/', token: () => 't', WebSocketImpl: sockets.Impl });
    const early = transport.call('app', 'info', undefined);
    const first = await sockets.latest();
    first.open();
    expect(calls(first)).toMatchObject([{ service: 'app', method: 'info' }]);
    first.answer(calls(first)[0]!.id, { version: 'v1' });
    expect(await early).toEqual({ ok: true, value: { version: 'v1' } });
    transport.close();

    const failing = fakeSockets();
    const other = createWebSocketTransport({ url: 'ws://relay.test/', token: () => 't', WebSocketImpl: failing.Impl });
    const held = other.call('relay', 'addStream', { name: 'cam', source: 'rtsp://x' });
    (await failing.latest()).close();
    expect(await held).toEqual({ ok: false, error: { code: NOT_CONNECTED, message: NOT_CONNECTED_MESSAGE } });
    await expect.poll(() => failing.made.length, { timeout: 2_000 }).toBe(2);
    failing.made[1]!.open();
    expect(calls(failing.made[1]!)).toEqual([]);
    other.close();
  });
});

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
    // Made while main is away: refused at once, and not sent once it is back.
    expect(await app.info()).toEqual({ ok: false, error: { code: NOT_CONNECTED, message: NOT_CONNECTED_MESSAGE } });
    await start(first.server.port);
    await expect.poll(() => transport.state, { timeout: 15_000 }).toBe('open');
    const again = await app.info();
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
