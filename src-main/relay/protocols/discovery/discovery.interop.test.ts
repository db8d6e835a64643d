import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe, startRelay, type RelayUnderTest } from '../../test/relay-test-kit';

// /api/hass against a Home Assistant stand-in that answers its REST API's real shapes (states
// with attributes, the camera proxy stream as MJPEG), and the cloud account endpoints' 501.
const TOKEN = 'long-lived-token';
const CAMERA_TOKEN = 'rotating-entity-token';
const jpegs = execFileSync(
  'ffmpeg',
  [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=160x120:rate=5:duration=1',
    '-c:v',
    'mjpeg',
    '-pix_fmt',
    'yuvj420p',
    '-f',
    'image2pipe',
    '-',
  ],
  { maxBuffer: 16 * 1024 * 1024 },
);
const frames = jpegs
  .toString('latin1')
  .split('\xff\xd8')
  .filter(Boolean)
  .map((part) => Buffer.from(`\xff\xd8${part}`, 'latin1'));

let ha: Server;
let relay: RelayUnderTest;
const seen: string[] = [];

beforeAll(async () => {
  ha = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
    const url = new URL(req.url ?? '/', 'http://ha');
    if (url.pathname === '/api/states') {
      if (req.headers.authorization !== `Bearer ${TOKEN}`)
        return void res.writeHead(401, { 'Content-Type': 'text/plain' }).end('401: Unauthorized');
      const context = { id: '01HXYZ', parent_id: null, user_id: null };
      const states = [
        {
          entity_id: 'camera.front_door',
          state: 'streaming',
          attributes: {
            access_token: CAMERA_TOKEN,
            friendly_name: 'Front door',
            supported_features: 2,
            entity_picture: `/api/camera_proxy/camera.front_door?token=${CAMERA_TOKEN}`,
          },
          last_changed: '2026-11-26T08:00:00+00:00',
          last_updated: '2026-11-26T08:00:00+00:00',
          context,
        },
        {
          entity_id: 'light.kitchen',
          state: 'on',
          attributes: { friendly_name: 'Kitchen' },
          last_changed: '2026-11-26T08:00:00+00:00',
          last_updated: '2026-11-26T08:00:00+00:00',
          context,
        },
      ];
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(states));
      return;
    }
    if (url.pathname === '/api/camera_proxy_stream/camera.front_door' && url.searchParams.get('token') === CAMERA_TOKEN) {
      res.writeHead(200, { 'Content-Type': 'multipart/x-mixed-replace; boundary=frame' });
      let i = 0;
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        const jpeg = frames[i++ % frames.length]!;
        res.write(`--frame\r\nContent-Type: image/jpeg\r\nContent-Length: ${jpeg.length}\r\n\r\n`);
        res.write(jpeg);
        res.write('\r\n');
      }, 100);
      res.on('error', () => clearInterval(timer));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => ha.listen(0, '127.0.0.1', resolve));
  const port = (ha.address() as AddressInfo).port;
  relay = await startRelay('', `hass:\n  url: http://127.0.0.1:${port}\n  token: ${TOKEN}\n`);
}, 30_000);
afterAll(async () => {
  ha.closeAllConnections();
  ha.close();
  await relay.stop();
});

describe('discovery', () => {
  it('/api/hass lists the cameras of Home Assistant as playable sources, with the entity token and not the long-lived one', async () => {
    const response = await fetch(`${relay.api}/api/hass`);
    expect(response.status).toBe(200);
    const { sources } = (await response.json()) as { sources: { name: string; url: string; info: string }[] };
    expect(sources).toEqual([
      {
        name: 'Front door',
        url: `http://127.0.0.1:${(ha.address() as AddressInfo).port}/api/camera_proxy_stream/camera.front_door?token=${CAMERA_TOKEN}`,
        info: 'camera.front_door (streaming)',
      },
    ]);
    expect(sources[0]!.url).not.toContain(TOKEN);
    expect(seen).toContain(`GET /api/states Bearer ${TOKEN}`);
    const added = await fetch(`${relay.api}/api/streams?name=front_door&src=${encodeURIComponent(sources[0]!.url)}`, { method: 'PUT' });
    expect(added.status).toBe(200);
    expect(await probe(relay.rtspUrl('front_door'))).toEqual([expect.objectContaining({ codec_name: 'mjpeg', width: 160, height: 120 })]);
  });

  it('cloud account endpoints answer 501 naming the service', async () => {
    for (const [path, service] of [
      ['/api/ring', 'Ring'],
      ['/api/roborock', 'Roborock'],
      ['/api/wyze', 'Wyze'],
    ] as const) {
      const response = await fetch(`${relay.api}${path}`);
      expect(response.status, path).toBe(501);
      expect(await response.text()).toContain(`no ${service} account adapter`);
    }
  });
});

describe('discovery without Home Assistant', () => {
  it('/api/hass is 404 without a hass section, 502 naming the refusal with a wrong token', async () => {
    const bare = await startRelay();
    try {
      const response = await fetch(`${bare.api}/api/hass`);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain('no hass config');
    } finally {
      await bare.stop();
    }
    const wrong = await startRelay('', `hass:\n  url: http://127.0.0.1:${(ha.address() as AddressInfo).port}\n  token: nope\n`);
    try {
      const response = await fetch(`${wrong.api}/api/hass`);
      expect(response.status).toBe(502);
      expect(await response.text()).toContain('refused the token (401)');
    } finally {
      await wrong.stop();
    }
  });
});
