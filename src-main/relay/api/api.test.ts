import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startRelay, type RelayUnderTest } from '../test/relay-test-kit';

describe('relay HTTP API', () => {
  let relay: RelayUnderTest | undefined;
  afterEach(async () => {
    await relay?.stop();
    relay = undefined;
  });

  const call = async (method: string, path: string, body?: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${relay!.api}${path}`, { method, body, headers });
    return { status: res.status, text: await res.text(), type: res.headers.get('content-type') ?? '' };
  };

  it('GET /api describes the application', async () => {
    relay = await startRelay();
    const res = await call('GET', '/api');
    const info = JSON.parse(res.text) as {
      config_path: string;
      host: string;
      rtsp: { listen: string; default_query: string };
      version: string;
      app_version: string;
    };
    expect(info.config_path).toBe(relay.running.configPath);
    expect(info.rtsp).toEqual({ listen: `127.0.0.1:${relay.rtspPort}`, default_query: 'video&audio' });
    // `version` is the go2rtc API level clients check; the app's own version has a field of its own.
    expect(info.version).toBe('1.9.14');
    expect(info.app_version).toBe('test');
  });

  it('creates, lists, updates and deletes streams, persisting them with comments intact', async () => {
    relay = await startRelay('  # the front door camera\n  door: rtsp://user:secret@10.0.0.9/stream1\n');
    expect((await call('PUT', '/api/streams?src=rtsp://127.0.0.1:1/x&name=yard')).status).toBe(200);
    const list = JSON.parse((await call('GET', '/api/streams')).text) as Record<
      string,
      { producers: Array<{ url: string }>; consumers: unknown[] }
    >;
    expect(Object.keys(list).sort()).toEqual(['door', 'yard']);
    // A caller on this machine (a loopback-only server) reads back the URL it wrote; a page of
    // another site that api.origin would let read sees it masked.
    expect(list.door!.producers[0]!.url).toBe('rtsp://user:secret@10.0.0.9/stream1');
    const foreignView = JSON.parse((await call('GET', '/api/streams?src=door', undefined, { Origin: 'https://dash.example' })).text) as {
      producers: Array<{ url: string }>;
    };
    expect(foreignView.producers[0]!.url).toBe('rtsp://***@10.0.0.9/stream1');
    expect(list.yard).toEqual({ producers: [{ url: 'rtsp://127.0.0.1:1/x' }], consumers: [] });

    expect((await call('PATCH', '/api/streams?name=yard&src=rtsp://127.0.0.1:2/y')).status).toBe(200);
    expect(JSON.parse((await call('GET', '/api/streams?src=yard')).text)).toEqual({
      producers: [{ url: 'rtsp://127.0.0.1:2/y' }],
      consumers: [],
    });

    let file = await readFile(relay.running.configPath, 'utf8');
    expect(file).toContain('# the front door camera');
    expect(file).toContain('yard: rtsp://127.0.0.1:2/y');
    expect(file).toContain('# relay test config');

    expect((await call('DELETE', '/api/streams?src=yard')).status).toBe(200);
    file = await readFile(relay.running.configPath, 'utf8');
    expect(file).not.toContain('yard');
    expect(file).toContain('# the front door camera');
    expect((await call('GET', '/api/streams?src=yard')).status).toBe(404);
  });

  it('answers every streams error path with a status and a reason', async () => {
    relay = await startRelay('  door: rtsp://127.0.0.1:1/x\n');
    const cases: Array<[string, string, number, RegExp]> = [
      ['PUT', '/api/streams?src=nope://x', 400, /source not supported: nope/],
      ['PUT', '/api/streams?src=exec:ffmpeg -i x&name=bad', 400, /config file only/],
      ['PUT', '/api/streams?src=echo:rtsp://x&name=bad', 400, /config file only/],
      ['PUT', '/api/streams?src=expr:1&name=bad', 400, /config file only/],
      ['PUT', '/api/streams?src=' + encodeURIComponent('rtsp://a b') + '&name=bad', 400, /config file only/],
      ['PATCH', '/api/streams?src=rtsp://x', 400, /name is required/],
      ['PATCH', '/api/streams?name=door', 400, /src is required/],
      ['DELETE', '/api/streams', 400, /src is required/],
      ['GET', '/api/streams?src=ghost', 404, /not found/],
      ['POST', '/api/streams?src=door', 400, /dst is required/],
      ['POST', '/api/streams?src=a&dst=b', 404, /neither/],
      ['POST', '/api/exit?code=300', 400, /range \[0, 125\]/],
      ['GET', '/api/exit', 400, /needs POST/],
      ['GET', '/api/restart', 400, /needs POST/],
    ];
    for (const [method, path, status, message] of cases) {
      const res = await call(method, path);
      expect(`${method} ${path} → ${res.status}`).toBe(`${method} ${path} → ${status}`);
      expect(res.text).toMatch(message);
      expect(res.type).toContain('text/plain');
    }
    const foreign = await call('PUT', '/api/streams?src=rtsp://x&name=evil', undefined, { Origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    expect(Object.keys(JSON.parse((await call('GET', '/api/streams')).text))).toEqual(['door']);
  });

  it('config: GET as YAML, POST validated (400 with line, file untouched), PATCH merged with comments kept', async () => {
    relay = await startRelay('  door: rtsp://127.0.0.1:1/x # inline note\n');
    const get = await call('GET', '/api/config');
    expect(get.type).toContain('application/yaml');
    expect(get.text).toContain('# relay test config');
    const before = await readFile(relay.running.configPath, 'utf8');

    const bad = await call('POST', '/api/config', 'streams:\n  door: [unclosed\n');
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/line \d+, column \d+/);
    expect(await readFile(relay.running.configPath, 'utf8')).toBe(before);
    expect((await call('PATCH', '/api/config', '- a\n- list\n')).status).toBe(400);
    expect((await call('PATCH', '/api/config', 'log: {level: [\n')).status).toBe(400);
    expect(await readFile(relay.running.configPath, 'utf8')).toBe(before);

    expect((await call('PATCH', '/api/config', 'streams:\n  yard: rtsp://127.0.0.1:3/z\nlog:\n  level: warn\n')).status).toBe(200);
    const after = await readFile(relay.running.configPath, 'utf8');
    expect(after).toContain('# relay test config');
    expect(after).toContain('# inline note');
    expect(after).toContain('yard: rtsp://127.0.0.1:3/z');
    expect(after).toMatch(/level: warn/);
    // The config change reaches the running relay.
    expect(Object.keys(JSON.parse((await call('GET', '/api/streams')).text)).sort()).toEqual(['door', 'yard']);

    expect((await call('PATCH', '/api/config', 'streams:\n  yard: null\n')).status).toBe(200);
    expect(await readFile(relay.running.configPath, 'utf8')).not.toContain('yard');

    const replaced = 'api:\n  listen: 127.0.0.1:0\nrtsp:\n  listen: 127.0.0.1:0\nstreams:\n  only: rtsp://127.0.0.1:4/w\n';
    expect((await call('POST', '/api/config', replaced)).status).toBe(200);
    expect(await readFile(relay.running.configPath, 'utf8')).toBe(replaced);
    expect(Object.keys(JSON.parse((await call('GET', '/api/streams')).text))).toEqual(['only']);
  });

  it('survives random YAML and garbage bodies without touching the file', async () => {
    relay = await startRelay('  door: rtsp://127.0.0.1:1/x\n');
    const before = await readFile(relay.running.configPath, 'utf8');
    const garbage = [
      '{{{{',
      ': : :',
      '\u0000\u0001\u0002',
      'a: b: c',
      '- [',
      '"unterminated',
      '\t\tx: 1',
      'api:\n  listen: nowhere\n',
      'log:\n  level: loud\n',
    ];
    for (const body of garbage) {
      const res = await call('POST', '/api/config', body);
      expect(res.status, body).toBe(400);
    }
    expect(await readFile(relay.running.configPath, 'utf8')).toBe(before);
    expect((await call('GET', '/api/streams?src=door')).status).toBe(200);
  });

  it('masks secrets in GET /api/config for an unauthenticated client of a network-facing server', async () => {
    const { maskConfigSecrets } = await import('./config-routes');
    const masked = maskConfigSecrets('api:\n  password: hunter2\nstreams:\n  cam: rtsp://admin:pw@10.0.0.2/s\n  secret_key: abc\n');
    expect(masked).not.toContain('hunter2');
    expect(masked).not.toContain('admin:pw');
    expect(masked).not.toContain('abc');
    expect(masked).toContain("password: '***'");
  });

  it('POST /api/restart restarts the engine with the file as it now stands', async () => {
    relay = await startRelay('  door: rtsp://127.0.0.1:1/x\n');
    let restarted = 0;
    relay.running.engine.context.requestRestart = () => void restarted++;
    await writeFile(relay.running.configPath, await readFile(relay.running.configPath, 'utf8'));
    expect((await call('POST', '/api/restart')).status).toBe(200);
    await vi.waitFor(() => expect(restarted).toBe(1));
  });
});
