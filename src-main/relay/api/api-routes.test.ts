import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelay, type RelayUnderTest } from '../test/relay-test-kit';

/** Which route of the relay API answers a path and method, and how the others are refused (go2rtc's text errors). */
describe('relay API routes', () => {
  let relay: RelayUnderTest;
  beforeAll(async () => {
    relay = await startRelay('  door: rtsp://127.0.0.1:1/door\n');
  });
  afterAll(async () => relay?.stop());

  const call = async (method: string, path: string) => {
    const res = await fetch(`${relay.api}${path}`, { method });
    return { status: res.status, allow: res.headers.get('allow'), text: await res.text() };
  };

  it('answers each method of a path from its own route', async () => {
    expect((await call('GET', '/api/log')).status).toBe(200);
    expect(await call('DELETE', '/api/log')).toEqual({ status: 200, allow: null, text: 'OK' });
    expect(JSON.parse((await call('GET', '/api/streams')).text)).toHaveProperty('door');
    expect((await call('GET', '/api/streams.dot')).text).toContain('digraph');
  });

  it('refuses another method on a known path with 405 and the methods it takes', async () => {
    expect(await call('PUT', '/api/log')).toEqual({ status: 405, allow: 'GET, DELETE', text: 'method PUT not allowed on /api/log\n' });
    expect(await call('POST', '/api/streams.dot')).toEqual({
      status: 405,
      allow: 'GET',
      text: 'method POST not allowed on /api/streams.dot\n',
    });
    expect(await call('HEAD', '/api/streams')).toMatchObject({ status: 405, allow: 'GET, PUT, PATCH, DELETE, POST' });
    expect(await call('PUT', '/api/config')).toMatchObject({ status: 405, allow: 'GET, POST, PATCH' });
  });

  it('keeps go2rtc’s 400 for exit and restart without POST', async () => {
    expect(await call('GET', '/api/exit')).toEqual({ status: 400, allow: null, text: 'exit needs POST\n' });
    expect(await call('PUT', '/api/restart')).toEqual({ status: 400, allow: null, text: 'restart needs POST\n' });
  });

  it('answers 404 for a path no route has, a trailing slash included', async () => {
    expect(await call('GET', '/api/streams/')).toEqual({ status: 404, allow: null, text: 'not found: /api/streams/\n' });
    expect(await call('GET', '/api/nothing')).toEqual({ status: 404, allow: null, text: 'not found: /api/nothing\n' });
  });
});
