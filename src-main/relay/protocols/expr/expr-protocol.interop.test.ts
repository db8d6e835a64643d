import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe, publishTestPattern, run, startRelay, waitForMedia, type RelayUnderTest } from '../../test/relay-test-kit';

const TOKEN = 't0ken-42';

describe('expr: sources', () => {
  let camera: RelayUnderTest;
  let relay: RelayUnderTest;
  let publisher: ChildProcess;
  let tokenServer: Server;
  const tokenRequests: string[] = [];

  beforeAll(async () => {
    // The camera wants RTSP credentials whose password is a token from an HTTP API.
    camera = await startRelay('  cam:\n', '', 0, `  username: viewer\n  password: ${TOKEN}\n  local_auth: true\n`);
    publisher = publishTestPattern(camera.rtspUrl('cam').replace('rtsp://', `rtsp://viewer:${TOKEN}@`));
    tokenServer = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        tokenRequests.push(`${req.method} ${req.url} ${req.headers['content-type']} ${body}`);
        const allowed =
          req.method === 'POST' &&
          req.url === '/api/token' &&
          req.headers['content-type'] === 'application/json' &&
          body === '{"user":"a"}';
        res
          .writeHead(allowed ? 200 : 403, { 'content-type': 'application/json' })
          .end(JSON.stringify(allowed ? { token: TOKEN } : { error: 'denied' }));
      });
    });
    await new Promise<void>((resolve) => tokenServer.listen(0, '127.0.0.1', resolve));
    const api = `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}`;
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await waitForMedia(camera, 'cam', 15_000);
    relay = await startRelay(
      [
        '  door: |',
        `    expr: let r = fetch("${api}/api/token", {method: "POST", headers: {"Content-Type": "application/json"}, body: '{"user":"a"}'}).json();`,
        `    "rtsp://viewer:" + r.token + "@127.0.0.1:${camera.rtspPort}/cam"`,
        '  number: "expr: 6 * 7"',
        '  loop: expr:"exec:ffmpeg -i x -f rtsp {output}"',
        `  denied: expr:fetch("${api}/api/nope").json().token`,
        `  whole: expr:fetch("${api}/api/nope").json()`,
        `  down: expr:fetch("http://127.0.0.1:${closedPort}/token").text`,
        '  broken: "expr: let = 1; 2"',
        '',
      ].join('\n'),
    );
  }, 60_000);
  afterAll(async () => {
    publisher?.kill('SIGKILL');
    await relay?.stop();
    await camera?.stop();
    tokenServer?.closeAllConnections();
    await new Promise((resolve) => tokenServer?.close(resolve));
  });

  it('fetches a token, builds the camera URL and serves its video', async () => {
    const streams = await probe(relay.rtspUrl('door'));
    expect(streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });
    expect(tokenRequests).toContain('POST /api/token application/json {"user":"a"}');
  }, 60_000);

  it('says what went wrong with the expression', async () => {
    const errors: Record<string, RegExp> = {
      number: /expr: the expression gave int 42, not a source URL string/,
      loop: /expr: the expression gave an exec: source, which may not run commands itself/,
      denied: /expr: the expression gave nil, not a source URL string/,
      whole: /expr: the expression gave a map \(keys: error\), not a source URL string/,
      down: /expr: line 1, column 1: fetch http:\/\/127\.0\.0\.1:\d+\/token: connect ECONNREFUSED/,
      broken: /expr: line 1, column 6: expected a name after let/,
    };
    await Promise.all(
      Object.entries(errors).map(async ([name, pattern]) => {
        const result = await run('ffprobe', ['-v', 'error', '-rtsp_transport', 'tcp', relay.rtspUrl(name)], 45_000);
        expect(result.code).not.toBe(0);
        const info = (await (await fetch(`${relay.api}/api/streams?src=${name}`)).json()) as { producers: Array<{ error?: string }> };
        expect(info.producers[0]!.error, name).toMatch(pattern);
      }),
    );
  }, 90_000);

  it('is refused through the API', async () => {
    const res = await fetch(`${relay.api}/api/streams?src=${encodeURIComponent('expr:"rtsp://127.0.0.1/x"')}&name=x`, { method: 'PUT' });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/expr runs commands and is accepted from the config file only/);
  });
});
