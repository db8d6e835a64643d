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
