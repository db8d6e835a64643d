import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestEngine } from '@main/engine/test-engine';
import { relayModule } from '../../relay-module';
import { startRelay, waitFor, type RelayUnderTest } from '../../test/relay-test-kit';

/** A "LAN camera" that only counts who connects: the proof that the relay dialed it, or not. */
async function countingCamera(): Promise<{ url: string; connections: () => number; close: () => void }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `rtsp://admin:hunter2@127.0.0.1:${port}/stream1`,
    connections: () => sockets.length,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

const FOREIGN = 'https://attacker.example';

describe('source URLs and other sites', () => {
  let relay: RelayUnderTest | undefined;
  let camera: Awaited<ReturnType<typeof countingCamera>> | undefined;
  afterEach(async () => {
    await relay?.stop();
    relay = undefined;
    camera?.close();
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${relay!.api}${path}`, { headers, signal: AbortSignal.timeout(15_000) });

  it('a page of another site gets 403 for a source URL on every output, before anything is dialed', async () => {
    camera = await countingCamera();
    relay = await startRelay();
    const src = encodeURIComponent(camera.url);
    for (const path of ['stream.m3u8', 'stream.mp4', 'frame.mp4', 'stream.mjpeg', 'frame.jpeg']) {
      const answer = await get(`/api/${path}?src=${src}`, { Origin: FOREIGN });
      expect(answer.status, path).toBe(403);
      expect(await answer.text()).toContain(`a page of ${FOREIGN} may not open source URLs`);
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    }
    const local = await get(`/api/stream.m3u8?src=${encodeURIComponent('ffmpeg:/etc/passwd')}`, { Origin: FOREIGN });
    expect(local.status).toBe(403);
    expect(camera.connections()).toBe(0);
    expect(JSON.parse(await (await get('/api/streams')).text())).toEqual({});
    expect(await (await get('/api/stack')).text()).not.toContain('consumer');
  });

  it('an <img> or <video> of another site, which sends no Origin, gets 403 too: Sec-Fetch-Site or a foreign Referer says where it came from', async () => {
    camera = await countingCamera();
    relay = await startRelay('  lobby: rtsp://127.0.0.1:1/lobby\n');
    const src = encodeURIComponent(camera.url);
    // Exactly the headers Chromium sends for an <img>/<video> of a page on another site or port.
    const image = { 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'image' };
    const shapes: Array<[Record<string, string>, string]> = [
      [
        { ...image, 'Sec-Fetch-Site': 'cross-site', Referer: 'https://attacker.example/page.html' },
        'a page of https://attacker.example may not',
      ],
      [{ ...image, 'Sec-Fetch-Site': 'cross-site' }, 'a page of another site may not'],
      // Another app of this machine on another port is the same site, not the same origin.
      [{ ...image, 'Sec-Fetch-Site': 'same-site', Referer: 'http://localhost:3000/' }, 'a page of http://localhost:3000 may not'],
      // A browser that sends no Sec-Fetch headers still names the page in Referer.
      [{ Referer: 'https://attacker.example/page.html' }, 'a page of https://attacker.example may not'],
    ];
    for (const [headers, message] of shapes) {
      for (const path of ['frame.jpeg', 'stream.mjpeg', 'stream.mp4', 'stream.m3u8']) {
        const answer = await get(`/api/${path}?src=${src}`, headers);
        expect(answer.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(await answer.text()).toContain(message);
      }
      const discovery = await get(`/api/onvif?src=${encodeURIComponent(`onvif://127.0.0.1:${new URL(camera.url).port}`)}`, headers);
      expect(discovery.status).toBe(403);
    }
    expect(camera.connections()).toBe(0);
    // A write shaped as a browser's without Origin is refused the same way.
    const write = await fetch(`${relay.api}/api/streams?name=x&src=rtsp://127.0.0.1:1/x`, {
      method: 'PUT',
      headers: { 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(write.status).toBe(403);
    expect(await write.text()).toContain('cross-site write refused');
    // Named streams stay open to other sites' pages, as in go2rtc.
    const named = await get('/api/streams?src=lobby', { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'cors' });
    expect(named.status).toBe(200);
  });

  it('a URL typed into the address bar (Sec-Fetch-Site: none) and the console page itself (same-origin) may open a source URL', async () => {
    camera = await countingCamera();
    relay = await startRelay();
    await dialedBy(`/api/frame.jpeg?src=${encodeURIComponent(camera.url)}`, { 'Sec-Fetch-Site': 'none', 'Sec-Fetch-Mode': 'navigate' });
    await dialedBy(`/api/frame.jpeg?src=${encodeURIComponent(`${camera.url}b`)}`, {
      'Sec-Fetch-Site': 'same-origin',
      Referer: `${relay.api}/`,
    });
    // Behind a reverse proxy the page's origin is the proxy's: the browser's same-origin stands.
    await dialedBy(`/api/frame.jpeg?src=${encodeURIComponent(`${camera.url}c`)}`, {
      'Sec-Fetch-Site': 'same-origin',
      Referer: 'http://frigate.lan:5000/cameras',
    });
  });

  /** Asks for a snapshot of `src` and returns once the camera saw a connection (the answer would take the dial's whole budget). */
  async function dialedBy(path: string, headers: Record<string, string> = {}): Promise<void> {
    const before = camera!.connections();
    const abort = new AbortController();
    const answer = fetch(`${relay!.api}${path}`, { headers, signal: abort.signal }).catch(() => undefined);
    await waitFor(() => (camera!.connections() > before ? true : undefined), 15_000);
    abort.abort();
    await answer;
  }

  it('tools (no Origin) and the console itself (its own origin) may open a source URL; the camera is dialed', async () => {
    camera = await countingCamera();
    relay = await startRelay();
    const src = encodeURIComponent(camera.url);
    await dialedBy(`/api/frame.jpeg?src=${src}`);
    await dialedBy(`/api/stream.mp4?src=${encodeURIComponent(`${camera.url}b`)}`, { Origin: relay.api });
  });

  it('ffmpeg: with a file on this machine is never opened from HTTP, whoever asks', async () => {
    relay = await startRelay();
    for (const input of ['/etc/passwd', 'file:///etc/passwd', 'concat:/etc/passwd|/etc/hosts']) {
      const answer = await get(`/api/stream.mp4?src=${encodeURIComponent(`ffmpeg:${input}`)}`);
      expect(answer.status, input).toBe(400);
      expect(await answer.text()).toContain(`ffmpeg: ${input} is a file on this machine`);
    }
    const put = await fetch(`${relay.api}/api/streams?name=f&src=${encodeURIComponent('ffmpeg:/etc/passwd#video=h264')}`, {
      method: 'PUT',
    });
    expect(put.status).toBe(400);
  });

  it('with a username and password, a logged-in page of another site may open a source URL', async () => {
    camera = await countingCamera();
    const running = await startTestEngine({
      modules: [relayModule],
      config:
        'data_dir: ./data\napi:\n  listen: 127.0.0.1:0\n  username: admin\n  password: pw\nrtsp:\n  listen: 127.0.0.1:0\nlog:\n  level: error\n',
    });
    relay = { running, api: running.engine.url, rtspPort: 0, rtspUrl: () => '', stop: () => running.stop() };
    const auth = { Authorization: `Basic ${Buffer.from('admin:pw').toString('base64')}` };
    await dialedBy(`/api/frame.jpeg?src=${encodeURIComponent(camera.url)}`, { Origin: FOREIGN, ...auth });
  });

  it('CORS stays closed by default and opens reads to the sites api.origin names; source URLs stay refused to them', async () => {
    relay = await startRelay('  cam: rtsp://127.0.0.1:1/cam\n');
    const closed = await get('/api/streams?src=cam', { Origin: FOREIGN });
    expect(closed.status).toBe(200);
    expect(closed.headers.get('access-control-allow-origin')).toBeNull();
    await relay.stop();

    relay = await startRelay('  cam: rtsp://127.0.0.1:1/cam\n', '', 0, '', `  origin: "*"\n`);
    const open = await get('/api/streams?src=cam', { Origin: FOREIGN });
    expect(open.headers.get('access-control-allow-origin')).toBe('*');
    const preflight = await fetch(`${relay.api}/api/stream.m3u8?src=cam`, {
      method: 'OPTIONS',
      headers: { Origin: FOREIGN, 'Access-Control-Request-Method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
    // Reading is open; making the relay dial a URL of the page's choosing is not.
    camera = await countingCamera();
    expect((await get(`/api/stream.mp4?src=${encodeURIComponent(camera.url)}`, { Origin: FOREIGN })).status).toBe(403);
    expect(camera.connections()).toBe(0);
    // Writes from other sites stay refused whatever api.origin says.
    const write = await fetch(`${relay.api}/api/streams?name=x&src=rtsp://127.0.0.1:1/x`, { method: 'PUT', headers: { Origin: FOREIGN } });
    expect(write.status).toBe(403);
    await relay.stop();

    relay = await startRelay('', '', 0, '', '  origin: [https://dash.example.com]\n');
    const listed = await get('/api/streams', { Origin: 'https://dash.example.com' });
    expect(listed.headers.get('access-control-allow-origin')).toBe('https://dash.example.com');
    expect(listed.headers.get('vary')).toBe('Origin');
    expect((await get('/api/streams', { Origin: FOREIGN })).headers.get('access-control-allow-origin')).toBeNull();
  });
});
