import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateExpression } from './evaluate-expression';
import { toJson } from './values';

/** What the test server saw of each request. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

describe('expr fetch', () => {
  let server: Server;
  let base = '';
  let closedPort = 0;
  const seen: Seen[] = [];
  const stalled: ServerResponse[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        const path = (req.url ?? '').split('?')[0];
        if (path === '/login') {
          res.writeHead(302, { location: '/session', 'set-cookie': 'sid=abc123; Path=/; HttpOnly' }).end();
        } else if (path === '/session') {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ cookie: req.headers.cookie ?? null }));
        } else if (path === '/echo') {
          res
            .writeHead(200, { 'content-type': 'application/json', 'x-camera': 'door' })
            .end(JSON.stringify({ method: req.method, body, type: req.headers['content-type'] ?? null }));
        } else if (path === '/missing') {
          res.writeHead(404).end('no such thing');
        } else if (path === '/big') {
          res.writeHead(200);
          res.end(Buffer.alloc(64 * 1024, 'x'));
        } else if (path === '/stall') {
          stalled.push(res);
        } else {
          res.writeHead(200).end('plain text');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
  });
  afterAll(async () => {
    for (const res of stalled) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const run = async (text: string, limits?: { timeoutMs: number; maxBytes: number }, signal = new AbortController().signal) =>
    toJson(await evaluateExpression(text, { signal, ...(limits ? { fetchLimits: limits } : {}) }));

  it('answers ok, status, text, json() and headers as go2rtc', async () => {
    const r = (await run(
      `let r = fetch("${base}/echo"); {ok: r.ok, status: r.status, text: r.text, json: r.json().method, camera: r.headers["x-camera"]}`,
    )) as Record<string, unknown>;
    expect(r).toEqual({ ok: true, status: '200 OK', text: '{"method":"GET","body":"","type":null}', json: 'GET', camera: 'door' });
    expect(await run(`let r = fetch("${base}/missing"); [r.ok, r.status, r.text, r.json()]`)).toEqual([
      false,
      '404 Not Found',
      'no such thing',
      null,
    ]);
  });

  it('sends method, headers and body; json and data set their content type', async () => {
    const posted = await run(
      `fetch("${base}/echo", {method: "POST", headers: {"Content-Type": "application/json", "X-Count": 3}, body: '{"user":"a"}'}).json()`,
    );
    expect(posted).toEqual({ method: 'POST', body: '{"user":"a"}', type: 'application/json' });
    expect(seen.at(-1)!.headers['x-count']).toBe('3');
    expect(await run(`fetch("${base}/echo", {method: "POST", json: {fields: ["token"], ttl: 3600}}).json()`)).toEqual({
      method: 'POST',
      body: '{"fields":["token"],"ttl":3600}',
      type: 'application/json',
    });
    expect(await run(`fetch("${base}/echo", {method: "POST", data: {user: "a b", pw: "x&y"}}).json()`)).toEqual({
      method: 'POST',
      body: 'user=a+b&pw=x%26y',
      type: 'application/x-www-form-urlencoded',
    });
    await run(`fetch("${base}/echo?a=1", {params: {channel: 2, q: "x y"}}).ok`);
    expect(seen.at(-1)!.url).toBe('/echo?a=1&channel=2&q=x+y');
  });

  it('turns credentials in the URL into Basic auth and never shows the password', async () => {
    await run(`fetch("http://admin:p%40ss@${base.slice(7)}/echo").ok`);
    expect(seen.at(-1)!.headers.authorization).toBe(`Basic ${Buffer.from('admin:p@ss').toString('base64')}`);
    const failure = await run(`fetch("http://admin:secret@127.0.0.1:${closedPort}/x")`).catch((error: Error) => error.message);
    expect(failure).toBe(
      `line 1, column 1: fetch http://admin:***@127.0.0.1:${closedPort}/x: connect ECONNREFUSED 127.0.0.1:${closedPort}`,
    );
  });

  it('keeps cookies across redirects and calls of one evaluation, not between evaluations', async () => {
    expect(await run(`fetch("${base}/login", {method: "POST", body: "u=a"}).json().cookie`)).toBe('sid=abc123');
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/session' }); // 302 after POST continues as GET
    expect(await run(`let login = fetch("${base}/login"); fetch("${base}/session").json().cookie`)).toBe('sid=abc123');
    expect(await run(`fetch("${base}/session").json().cookie`)).toBe(null);
  });

  it('fails with the URL named: refused, too slow, too large, not http, aborted', async () => {
    await expect(run(`fetch("http://127.0.0.1:${closedPort}/token")`)).rejects.toThrow(
      `line 1, column 1: fetch http://127.0.0.1:${closedPort}/token: connect ECONNREFUSED`,
    );
    await expect(run('fetch("http://127.0.0.1:6000/")')).rejects.toThrow('port 6000 is one that fetch refuses');
    await expect(run(`fetch("${base}/stall")`, { timeoutMs: 300, maxBytes: 1 << 20 })).rejects.toThrow(
      `fetch ${base}/stall: no answer within 0.3 s`,
    );
    await expect(run(`fetch("${base}/big").text`, { timeoutMs: 5_000, maxBytes: 1024 })).rejects.toThrow(
      `fetch ${base}/big: the answer is larger than 1024 bytes`,
    );
    expect(await run(`len(fetch("${base}/big").text)`)).toBe(64 * 1024);
    await expect(run('fetch("file:///etc/passwd")')).rejects.toThrow('fetch file:///etc/passwd: only http and https URLs can be fetched');
    await expect(run('fetch("not a url")')).rejects.toThrow('fetch: "not a url" is not a valid URL');
    await expect(run(`fetch("${base}/echo", "POST")`)).rejects.toThrow('fetch: options must be a map like {method: "POST"}, got string');
    const controller = new AbortController();
    const pending = run(`fetch("${base}/stall")`, undefined, controller.signal);
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toThrow(`fetch ${base}/stall: aborted`);
  });
});
