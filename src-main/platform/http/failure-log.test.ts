import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { HttpError } from './http-error';
import { createRouter } from './router';

// What an operator reads while a camera is down and every viewer is turned away: one WARN per
// stream and cause, not one ERROR per request; faults stay ERROR every time.
let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(lines: string[]): Promise<string> {
  const router = createRouter(createLogger({ level: 'debug', sink: { write: (line) => lines.push(line) } }));
  router.add([
    {
      method: '*',
      path: '/api/frame.jpeg',
      handler: ({ url }) => {
        const src = url.searchParams.get('src');
        if (src === 'boom') throw new TypeError('cannot read properties of undefined');
        if (src === 'porch' || src === 'garden')
          throw new HttpError(503, `stream ${src}: no source is reachable (connect ECONNREFUSED 10.0.0.9:554)`);
        throw new HttpError(404, `stream not found: ${src}`);
      },
    },
    {
      method: '*',
      path: '/api/streams',
      handler: () => {
        throw new HttpError(400, 'streams: source is empty');
      },
    },
  ]);
  server = createServer((req, res) => void router.handle(req, res));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('failed requests in the log', () => {
  it('a source that is down and a missing stream are said once each at WARN; a fault is an ERROR every time', async () => {
    const lines: string[] = [];
    const base = await serve(lines);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      for (const src of ['porch', 'garden', 'attic']) statuses.push((await fetch(`${base}/api/frame.jpeg?src=${src}`)).status);
    }
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${base}/api/frame.jpeg?src=boom`)).status);
    statuses.push((await fetch(`${base}/api/streams`, { method: 'PUT' })).status);

    expect(statuses.filter((s) => s === 503)).toHaveLength(40);
    expect(statuses.filter((s) => s === 404)).toHaveLength(20);
    const at = (level: string) => lines.filter((line) => line.split(' ')[1] === level);
    expect(at('WARN')).toHaveLength(3);
    expect(at('WARN').join('\n')).toContain('stream porch: no source is reachable');
    expect(at('WARN').join('\n')).toContain('stream garden: no source is reachable');
    expect(at('WARN').join('\n')).toContain('stream not found: attic');
    expect(at('ERROR')).toHaveLength(3);
    expect(at('ERROR')[0]).toContain('request failed: GET /api/frame.jpeg');
    expect(at('DEBUG').join('\n')).toContain('streams: source is empty');
    // The query (which may carry a source URL with its password) is never logged.
    expect(lines.join('\n')).not.toContain('src=');
  });
});
