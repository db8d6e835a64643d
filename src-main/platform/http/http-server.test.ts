import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../logger';
import { HttpError } from './http-error';
import { createRouter } from './router';
import { startHttpServer, type RunningHttpServer } from './http-server';

describe('API server guards', () => {
  let server: RunningHttpServer | undefined;
  afterEach(async () => server?.close());

  const start = async (credentials?: { username: string; password: string }) => {
    const logger = createMemoryLogger();
    const router = createRouter(logger);
    router.add([
      { method: ['GET', 'POST'], path: '/api/thing', handler: ({ req, res }) => void res.end(`did ${req.method}`) },
      { method: 'GET', path: '/api/split', handler: ({ res }) => void res.end('watching') },
      { method: 'POST', path: '/api/split', handler: ({ res }) => void res.end('uploading') },
      {
        method: '*',
        path: '/api/teapot',
        handler: () => {
          throw new HttpError(418, 'short and stout');
        },
      },
      {
        method: '*',
        path: '/api/boom',
        handler: () => {
          throw new Error('kaput');
        },
      },
      { method: '*', path: '/onvif/*', handler: ({ url, res }) => void res.end(`onvif ${url.pathname}`), ownAuth: true },
      { method: 'GET', path: '/api/cameras/:name/snapshot', handler: ({ params, res }) => void res.end(`snapshot of ${params.name}`) },
    ]);
    server = await startHttpServer({ host: '127.0.0.1', port: 0, router, logger, credentials });
    return server.url;
  };

  it('routes by path and prefix, with text errors that say what was wrong', async () => {
    const url = await start();
    expect(await (await fetch(`${url}/api/thing`)).text()).toBe('did GET');
    expect(await (await fetch(`${url}/onvif/device_service`)).text()).toBe('onvif /onvif/device_service');
    const teapot = await fetch(`${url}/api/teapot`);
    expect(teapot.status).toBe(418);
    expect(await teapot.text()).toBe('short and stout\n');
    const put = await fetch(`${url}/api/thing`, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
    expect((await fetch(`${url}/api/nothing`)).status).toBe(404);
    expect((await fetch(`${url}/api/boom`)).status).toBe(500);
    expect(await (await fetch(`${url}/api/split`)).text()).toBe('watching');
    expect(await (await fetch(`${url}/api/split`, { method: 'POST' })).text()).toBe('uploading');
    const del = await fetch(`${url}/api/split`, { method: 'DELETE' });
    expect([del.status, del.headers.get('allow')]).toEqual([405, 'GET, POST']);
  });

  it('refuses a second handler for a path and method that already has one', () => {
    const router = createRouter(createMemoryLogger());
    router.add([{ method: 'GET', path: '/api/x', handler: () => undefined }]);
    expect(() => router.add([{ method: ['GET', 'POST'], path: '/api/x', handler: () => undefined }])).toThrow('registered twice');
    expect(() => router.add([{ method: 'GET', path: '/api/:other', handler: () => undefined }])).not.toThrow();
    expect(() => router.add([{ method: 'GET', path: '/api/:again', handler: () => undefined }])).toThrow('registered twice');
  });

  it('gives a route its decoded parameters, and a malformed escape in one is 400', async () => {
    const url = await start();
    expect(await (await fetch(`${url}/api/cameras/front%20door/snapshot`)).text()).toBe('snapshot of front door');
    const malformed = await fetch(`${url}/api/cameras/front%ZZ/snapshot`);
    expect([malformed.status, await malformed.text()]).toEqual([400, 'malformed percent escape in /api/cameras/front%ZZ/snapshot\n']);
  });

  it('lets a route that checks the login itself skip Basic auth, and no other', async () => {
    const url = await start({ username: 'admin', password: 's3cret' });
    expect(await (await fetch(`${url}/onvif/device_service`)).text()).toBe('onvif /onvif/device_service');
    expect((await fetch(`${url}/onvif`)).status).toBe(401);
    expect((await fetch(`${url}/api/thing`)).status).toBe(401);
  });

  it('refuses writes from another origin but not from tools or itself', async () => {
    const url = await start();
    const foreign = await fetch(`${url}/api/thing`, { method: 'POST', headers: { Origin: 'http://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toContain('cross-origin write refused');
    expect((await fetch(`${url}/api/thing`, { method: 'POST' })).status).toBe(200);
    expect((await fetch(`${url}/api/thing`, { method: 'POST', headers: { Origin: url } })).status).toBe(200);
    expect((await fetch(`${url}/api/thing`, { headers: { Origin: 'http://evil.example' } })).status).toBe(200);
  });

  it('answers on loopback only to loopback host names (no DNS rebinding)', async () => {
    const url = await start();
    const port = new URL(url).port;
    const rebound = await new Promise<number>((resolve, reject) => {
      // fetch() cannot set Host; a raw request can, as a rebinding browser would send it.
      import('node:http').then(({ request }) => {
        const req = request({ host: '127.0.0.1', port, path: '/api/thing', headers: { Host: `attacker.example:${port}` } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      }, reject);
    });
    expect(rebound).toBe(403);
    expect((await fetch(`http://localhost:${port}/api/thing`)).status).toBe(200);
  });

  it('asks for Basic credentials when configured', async () => {
    const url = await start({ username: 'admin', password: 's3cret' });
    const anonymous = await fetch(`${url}/api/thing`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toContain('Basic');
    const wrong = await fetch(`${url}/api/thing`, { headers: { Authorization: `Basic ${btoa('admin:nope')}` } });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${url}/api/thing`, { headers: { Authorization: `Basic ${btoa('admin:s3cret')}` } });
    expect(right.status).toBe(200);
  });
});
