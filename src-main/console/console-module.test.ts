import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import { defineService, method, type ServiceEmitter } from '../../src-shared/contract/define-service';
import type { EngineModule } from '../engine/engine-context';
import { CONSOLE_SOCKET_PATH, CONSOLE_SOCKET_PROTOCOL, tokenProtocol } from '../../src-shared/contract/wire';
import { appModule } from '../app/app-module';
import { startTestEngine, type TestEngine } from '../engine/test-engine';
import { createConsoleModule } from './console-module';
import { quietFor } from '../test-support/time';

const TOKEN = 'a'.repeat(64);

const tickService = defineService({
  name: 'ticks',
  methods: { tick: method(z.object({ n: z.number() }), z.void()) },
  events: { onTick: z.object({ n: z.number() }) },
});

/** A service whose event fires on demand, to watch events cross the socket. */
const tickModule: EngineModule = {
  name: 'ticks',
  init(ctx) {
    const emit: ServiceEmitter<typeof tickService> = ctx.services.bind(tickService, {
      tick: async ({ n }) => emit('onTick', { n }),
    });
  },
};

describe('console page and WebSocket contract', () => {
  let running: TestEngine;
  let rendererDir: string;
  let wsUrl: string;

  beforeAll(async () => {
    rendererDir = await mkdtemp(join(tmpdir(), 'relay-console-renderer-'));
    await mkdir(join(rendererDir, 'assets'));
    await writeFile(join(rendererDir, 'index.html'), '<html><head><meta name="relay-console-session" content="" /></head></html>');
    await writeFile(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
    await writeFile(join(rendererDir, 'icon.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
    running = await startTestEngine({ modules: [appModule, tickModule, createConsoleModule({ rendererDir, sessionToken: TOKEN })] });
    wsUrl = running.engine.url.replace('http', 'ws') + CONSOLE_SOCKET_PATH;
  });
  afterAll(async () => {
    await running.stop();
    await rm(rendererDir, { recursive: true, force: true });
  });

  const open = (protocols: string[], headers: Record<string, string> = {}) =>
    new Promise<{ ws?: WebSocket; status?: number }>((resolve) => {
      const ws = new WebSocket(wsUrl, protocols, { headers });
      ws.once('open', () => resolve({ ws }));
      ws.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode }));
      ws.once('error', () => undefined);
    });

  const call = (ws: WebSocket, frame: object) =>
    new Promise<unknown>((resolve) => {
      ws.once('message', (data) => resolve(JSON.parse(String(data))));
      ws.send(JSON.stringify(frame));
    });

  it('serves the page with the session token and strict headers', async () => {
    const res = await fetch(running.engine.url + '/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await res.text()).toContain(`content="${TOKEN}"`);
    const asset = await fetch(running.engine.url + '/assets/app.js');
    expect(asset.headers.get('content-type')).toContain('text/javascript');
    expect((await fetch(running.engine.url + '/assets/missing.js')).status).toBe(404);
    expect((await fetch(running.engine.url + '/%2e%2e/%2e%2e/etc/passwd')).status).toBe(404);
    expect((await fetch(running.engine.url + '/', { method: 'POST' })).status).toBe(405);
    const favicon = await fetch(running.engine.url + '/favicon.ico');
    expect([favicon.status, favicon.headers.get('content-type'), Buffer.from(await favicon.arrayBuffer()).toString('hex')]).toEqual([
      200,
      'image/png',
      '89504e470d0a1a0a',
    ]);
  });

  it('refuses a socket without the token, with a wrong one, or from another origin', async () => {
    expect((await open([CONSOLE_SOCKET_PROTOCOL])).status).toBe(401);
    expect((await open([CONSOLE_SOCKET_PROTOCOL, tokenProtocol('b'.repeat(64))])).status).toBe(401);
    const foreign = await open([CONSOLE_SOCKET_PROTOCOL, tokenProtocol(TOKEN)], { Origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
  });

  it('answers calls with values and errors as values', async () => {
    const { ws } = await open([CONSOLE_SOCKET_PROTOCOL, tokenProtocol(TOKEN)], { Origin: running.engine.url });
    expect(ws).toBeDefined();
    const info = (await call(ws!, { type: 'call', id: 7, service: 'app', method: 'info' })) as {
      id: number;
      result: { ok: boolean; value: { version: string; runtime: string; configPath: string } };
    };
    expect(info.id).toBe(7);
    expect(info.result.ok).toBe(true);
    expect(info.result.value).toMatchObject({ version: 'test', runtime: 'headless', configPath: running.configPath });
    expect(await call(ws!, { type: 'call', id: 8, service: 'app', method: 'info', input: { extra: 1 } })).toMatchObject({
      id: 8,
      result: { ok: false, error: { code: 'invalid_input' } },
    });
    ws!.close();
  });

  it('pushes events to subscribed sockets until they unsubscribe', async () => {
    const { ws } = await open([CONSOLE_SOCKET_PROTOCOL, tokenProtocol(TOKEN)]);
    const frames: Array<{ type: string; payload?: { n: number } }> = [];
    ws!.on('message', (data) => frames.push(JSON.parse(String(data))));
    const received = (count: number) => vi.waitFor(() => expect(frames.length).toBeGreaterThanOrEqual(count));
    ws!.send(JSON.stringify({ type: 'subscribe', service: 'ticks', event: 'onTick' }));
    ws!.send(JSON.stringify({ type: 'call', id: 1, service: 'ticks', method: 'tick', input: { n: 1 } }));
    await received(2);
    ws!.send(JSON.stringify({ type: 'unsubscribe', service: 'ticks', event: 'onTick' }));
    ws!.send(JSON.stringify({ type: 'call', id: 2, service: 'ticks', method: 'tick', input: { n: 2 } }));
    await received(3);
    expect(frames.filter((f) => f.type === 'event').map((f) => f.payload)).toEqual([{ n: 1 }]);
    expect(frames.filter((f) => f.type === 'result')).toHaveLength(2);
    ws!.close();
  });

  it('closes a socket that sends a malformed frame', async () => {
    const { ws } = await open([CONSOLE_SOCKET_PROTOCOL, tokenProtocol(TOKEN)]);
    const code = await new Promise<number>((resolve) => {
      ws!.once('close', (c) => resolve(c));
      ws!.send('{"type":"call","id":"x"');
    });
    expect(code).toBe(1007);
  });
});

describe('the console while the engine still starts', () => {
  it('serves the page as soon as the API listens; its socket opens, and calls work, once every module has started', async () => {
    const rendererDir = await mkdtemp(join(tmpdir(), 'relay-console-renderer-'));
    await writeFile(join(rendererDir, 'index.html'), '<html><head><meta name="relay-console-session" content="" /></head></html>');
    let release = () => undefined as void;
    let reached: (url: string) => void = () => undefined;
    const listening = new Promise<string>((resolve) => (reached = resolve));
    // Stands in for the emulators making their certificates: a module that takes its time.
    const slowModule: EngineModule = {
      name: 'slow',
      init: (ctx) =>
        new Promise<void>((resolve) => {
          release = resolve;
          reached(ctx.server.url);
        }),
    };
    const starting = startTestEngine({ modules: [createConsoleModule({ rendererDir, sessionToken: TOKEN }), slowModule, appModule] });
    try {
      const url = await listening;
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`content="${TOKEN}"`);

      const events: string[] = [];
      const ws = new WebSocket(`${url.replace('http', 'ws')}${CONSOLE_SOCKET_PATH}`, [CONSOLE_SOCKET_PROTOCOL, tokenProtocol(TOKEN)]);
      ws.once('open', () => events.push('open'));
      ws.once('error', () => events.push('error'));
      await quietFor(300); // the socket neither opens nor fails while a module still starts
      expect(events).toEqual([]);

      release();
      const running = await starting;
      await new Promise((resolve) => (ws.readyState === ws.OPEN ? resolve(undefined) : ws.once('open', resolve)));
      expect(events).toEqual(['open']);
      const answer = await new Promise<unknown>((resolve) => {
        ws.once('message', (data) => resolve(JSON.parse(String(data))));
        ws.send(JSON.stringify({ type: 'call', id: 1, service: 'app', method: 'info' }));
      });
      expect(answer).toMatchObject({ id: 1, result: { ok: true, value: { version: 'test' } } });
      ws.close();
      await running.stop();
    } finally {
      release();
      await rm(rendererDir, { recursive: true, force: true });
    }
  });
});
