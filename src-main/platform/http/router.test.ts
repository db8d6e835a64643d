import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../logger';
import { listen } from '../listen';
import { createRouter } from './router';

describe('router errors', () => {
  it('logs a failed request with its method and path, never its query', async () => {
    const logger = createMemoryLogger('info');
    const router = createRouter(logger.child('http'));
    router.add([
      {
        method: '*',
        path: '/api/boom',
        handler: () => {
          throw new Error('disk on fire');
        },
      },
    ]);
    const server = createServer((req, res) => void router.handle(req, res));
    const port = await listen(server, 0, '127.0.0.1');
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/boom?src=rtsp://admin:secret@cam/1`, { method: 'POST' });
      expect(response.status).toBe(500);
      expect(await response.text()).toBe('disk on fire\n');
      const failed = logger.lines.filter((line) => line.includes('request failed'));
      expect(failed).toHaveLength(1);
      expect(failed[0]).toContain('[http] request failed: POST /api/boom {"status":500,"error":"disk on fire"}');
      expect(failed[0]).not.toContain('secret');
    } finally {
      server.close();
    }
  });
});

describe('router while the engine starts', () => {
  it('holds a 404 until the start settles and routes it again, but answers what is already there at once', async () => {
    let started = () => undefined as void;
    const startingUntil = new Promise<void>((resolve) => (started = resolve));
    const router = createRouter(createMemoryLogger('error'), { startingUntil });
    router.add([{ method: 'GET', path: '/', handler: ({ res }) => void res.end('page') }]);
    const server = createServer((req, res) => void router.handle(req, res));
    const port = await listen(server, 0, '127.0.0.1');
    try {
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('page');
      let settled = false;
      const arrived = new Promise((resolve) => server.on('request', (req: { url?: string }) => req.url === '/api' && resolve(undefined)));
      const api = fetch(`http://127.0.0.1:${port}/api`).then(async (r) => {
        settled = true;
        return { status: r.status, body: await r.text() };
      });
      await arrived;
      // The page is answered while /api, already at the server, is held.
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('page');
      expect(settled).toBe(false);
      router.add([{ method: 'GET', path: '/api', handler: ({ res }) => void res.end('api') }]);
      started();
      expect(await api).toEqual({ status: 200, body: 'api' });
      // Once started, a path nobody serves is a 404 at once.
      const missing = await fetch(`http://127.0.0.1:${port}/nothing`);
      expect(missing.status).toBe(404);
      expect(await missing.text()).toBe('not found: /nothing\n');
    } finally {
      server.close();
    }
  });

  it('answers the 404 when the start fails', async () => {
    let failed = () => undefined as void;
    const startingUntil = new Promise<void>((_, reject) => (failed = () => reject(new Error('module failed'))));
    const router = createRouter(createMemoryLogger('error'), { startingUntil });
    const server = createServer((req, res) => void router.handle(req, res));
    const port = await listen(server, 0, '127.0.0.1');
    try {
      const held = fetch(`http://127.0.0.1:${port}/api`);
      failed();
      expect((await held).status).toBe(404);
    } finally {
      server.close();
    }
  });
});
