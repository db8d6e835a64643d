import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ensureLocalCertificate } from '../platform/tls/local-certificate';
import type { EngineModule } from './engine-context';
import { startEngine, type Engine } from './engine';

// api.tls_listen, as go2rtc has it: the same API (and its WebSockets) over https on a second
// address, with a certificate given as PEM text, as file paths, or made by a local CA.
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rc-api-tls-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A route and a WebSocket that answer who asked, so both servers can be told apart from the handlers. */
const echo: EngineModule = {
  name: 'echo',
  init(ctx) {
    ctx.http.add([
      { method: '*', path: '/api/echo', handler: ({ res }) => void res.writeHead(200, { 'Content-Type': 'text/plain' }).end('echo') },
    ]);
    ctx.server.upgrade('/api/ws-echo', (_req, socket) => {
      socket.end('HTTP/1.1 418 Teapot\r\nConnection: close\r\n\r\n');
    });
  },
};

const start = async (config: string): Promise<Engine> => {
  const configPath = join(dir, `relay-${Math.random().toString(36).slice(2)}.yaml`);
  await writeFile(configPath, `data_dir: ${JSON.stringify(join(dir, 'data'))}\n${config}`);
  return startEngine({
    runtime: 'headless',
    version: 'test',
    modules: [echo],
    configPath,
    env: {},
    listen: { host: '127.0.0.1', port: 0 },
    logSink: { write: () => undefined },
  });
};

function get(url: string, ca: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('api.tls_listen', () => {
  it('serves the API over https with a certificate from a local CA when none is given, behind the same auth', async () => {
    const engine = await start('api:\n  listen: 127.0.0.1:0\n  tls_listen: 127.0.0.1:0\n  username: admin\n  password: s3cret\n');
    try {
      const tlsUrl = engine.server.tlsUrl!;
      expect(tlsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const ca = await readFile(join(dir, 'data', 'api', 'tls', 'ca.pem'), 'utf8');
      expect((await get(`${tlsUrl}/api/echo`, ca)).status).toBe(401);
      const auth = { Authorization: `Basic ${Buffer.from('admin:s3cret').toString('base64')}` };
      expect(await get(`${tlsUrl}/api/echo`, ca, auth)).toEqual({ status: 200, body: 'echo' });
      // Without the CA the certificate is not trusted: nothing was silently downgraded.
      await expect(get(`${tlsUrl}/api/echo`, '')).rejects.toThrow(/certificate/);
      // WebSocket upgrades reach the same handlers over TLS.
      const ws = new WebSocket(`${tlsUrl.replace('https', 'wss')}/api/ws-echo`, { ca, headers: auth });
      const status = await new Promise<number>((resolve) => ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
      expect(status).toBe(418);
      // And plain http still answers on api.listen.
      expect((await fetch(`${engine.server.url}/api/echo`, { headers: auth })).status).toBe(200);
    } finally {
      await engine.close();
    }
  });

  it('takes tls_cert and tls_key as PEM text or as file paths (as go2rtc reads them)', async () => {
    const made = await ensureLocalCertificate({ dir: join(dir, 'own'), label: 'test' });
    const ca = await readFile(made.caPath, 'utf8');
    const indent = (pem: string) =>
      pem
        .trim()
        .split('\n')
        .map((line) => `    ${line}`)
        .join('\n');
    const inline = await start(
      `api:\n  listen: 127.0.0.1:0\n  tls_listen: 127.0.0.1:0\n  tls_cert: |\n${indent(made.cert)}\n  tls_key: |\n${indent(made.key)}\n`,
    );
    try {
      expect((await get(`${inline.server.tlsUrl}/api/echo`, ca)).body).toBe('echo');
    } finally {
      await inline.close();
    }
    await writeFile(join(dir, 'api.crt'), made.cert);
    await writeFile(join(dir, 'api.key'), made.key);
    const files = await start('api:\n  listen: 127.0.0.1:0\n  tls_listen: 127.0.0.1:0\n  tls_cert: api.crt\n  tls_key: api.key\n');
    try {
      expect((await get(`${files.server.tlsUrl}/api/echo`, ca)).body).toBe('echo');
    } finally {
      await files.close();
    }
  });

  it('refuses a half-given certificate or an unreadable file with the key named', async () => {
    await expect(start('api:\n  tls_listen: 127.0.0.1:0\n  tls_cert: api.crt\n')).rejects.toThrow(
      /api\.tls_key: api\.tls_cert and api\.tls_key go together/,
    );
    await expect(start('api:\n  tls_cert: a.crt\n  tls_key: a.key\n')).rejects.toThrow(
      /api\.tls_listen: api\.tls_cert is set but api\.tls_listen is not/,
    );
    await expect(
      start('api:\n  listen: 127.0.0.1:0\n  tls_listen: 127.0.0.1:0\n  tls_cert: missing.crt\n  tls_key: missing.key\n'),
    ).rejects.toThrow(/api\.tls_cert: cannot read .*missing\.crt \(ENOENT\)/);
  });
});
