import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '@main/test-support/free-port';
import { relayJson, relayRequest, type RelayHttpError } from './relay-http';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const servers: Server[] = [];
async function serve(handler: Handler): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as RelayHttpError,
  );

describe('requests to a remote relay', () => {
  it('logs in with Basic auth and sends the query as given, src repeated', async () => {
    const seen: Array<{ auth?: string; url?: string; method?: string }> = [];
    const url = await serve((req, res) => {
      seen.push({ auth: req.headers.authorization, url: req.url, method: req.method });
      res.end('{"ok":true}');
    });
    const login = { username: 'admin', password: 'p:ss' };
    expect(await relayJson({ url, login }, '/api')).toEqual({ ok: true });
    await relayRequest({ url }, '/api/streams', {
      method: 'PUT',
      query: [
        ['name', 'yard'],
        ['src', 'rtsp://a/1'],
        ['src', 'rtsp://b/2'],
      ],
    });
    expect(seen[0]).toEqual({ auth: `Basic ${Buffer.from('admin:p:ss').toString('base64')}`, url: '/api', method: 'GET' });
    expect(seen[1]).toEqual({
      auth: undefined,
      url: '/api/streams?name=yard&src=rtsp%3A%2F%2Fa%2F1&src=rtsp%3A%2F%2Fb%2F2',
      method: 'PUT',
    });
  });

  it('follows a redirect on its origin with the login, to another origin without it, and never to another scheme', async () => {
    const other: Array<string | undefined> = [];
    const elsewhere = await serve((req, res) => {
      other.push(req.headers.authorization);
      res.end('{"where":"elsewhere"}');
    });
    const url = await serve((req, res) => {
      if (req.url === '/api') return void res.writeHead(302, { Location: '/api/moved' }).end();
      if (req.url === '/api/moved') return void res.end(JSON.stringify({ auth: req.headers.authorization ?? null }));
      if (req.url === '/api/away') return void res.writeHead(307, { Location: `${elsewhere}/api` }).end();
      if (req.url === '/api/file') return void res.writeHead(302, { Location: 'file:///etc/passwd' }).end();
      res.writeHead(302, { Location: '/api/loop' }).end();
    });
    const login = { username: 'u', password: 'p' };
    expect(await relayJson({ url, login }, '/api')).toEqual({ auth: `Basic ${Buffer.from('u:p').toString('base64')}` });
    expect(await relayJson({ url, login }, '/api/away')).toEqual({ where: 'elsewhere' });
    expect(other).toEqual([undefined]);
    expect((await failure(relayJson({ url }, '/api/file')))?.reason).toBe(
      'it redirected to a file: address; only http and https are followed',
    );
    expect((await failure(relayJson({ url }, '/api/loop')))?.reason).toBe('it redirected more than 3 times');
  });

  it('refuses answers over the size limit, declared or streamed', async () => {
    const url = await serve((req, res) => {
      if (req.url === '/declared') return void res.writeHead(200, { 'Content-Length': '2048' }).end('x'.repeat(2048));
      res.writeHead(200);
      res.write('y'.repeat(1500));
      res.end('y'.repeat(1500));
    });
    expect((await failure(relayRequest({ url }, '/declared', { maxBytes: 1024 })))?.reason).toBe(
      'its answer is too large (2048 bytes, at most 1024)',
    );
    expect((await failure(relayRequest({ url }, '/streamed', { maxBytes: 1024 })))?.reason).toBe(
      'its answer is too large (more than 1024 bytes)',
    );
  });

  it('says why it got no answer: refused, timed out, a status with the relay words, not JSON', async () => {
    const port = await freePort();
    expect((await failure(relayJson({ url: `http://127.0.0.1:${port}` }, '/api')))?.reason).toBe('connection refused');
    const url = await serve((req, res) => {
      if (req.url === '/api/slow') return; // never answers
      if (req.url === '/api/login') return void res.writeHead(401).end('Unauthorized');
      res.end('<html>not a relay</html>');
    });
    const slow = await failure(relayJson({ url }, '/api/slow', { timeoutMs: 200 }));
    expect(slow?.reason).toBe('timed out after 0.2 s');
    const refused = await failure(relayJson({ url }, '/api/login'));
    expect(refused).toMatchObject({ status: 401, reason: 'HTTP 401: the relay wants a login (Unauthorized)' });
    expect((await failure(relayJson({ url }, '/api')))?.reason).toBe('its /api answer is not JSON');
  });
});
