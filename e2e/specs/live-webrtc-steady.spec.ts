import { test, expect } from '../fixtures/test';
import { LivePage } from '../pages/live-page';

const CAMERA = 'ffmpeg:virtual?video=testsrc&size=640x360&fps=25#video=h264';
const TILES = ['a-0-steady-1', 'a-0-steady-2', 'a-0-steady-3', 'a-0-steady-4', 'a-0-steady-5', 'a-0-steady-6'];

// Several WebRTC tiles used to lose their viewers 10-30 s in: the browser checks the relay's UDP
// and TCP candidates, then drops the TCP connection it does not use, and the relay took that for
// the viewer leaving. The relay must keep every viewer for as long as the tiles play.

// The console server is shared by the specs: these streams must not stay in the others' grids.
test.afterAll(async ({ consoleServer }) => {
  for (const name of [...TILES, 'a-0-steady-camera']) await fetch(`${consoleServer.url}/api/streams?src=${name}`, { method: 'DELETE' });
});

// Room for six tiles on screen (tiles off screen stop playing): with four the drop was rarer.
test.use({ viewport: { width: 1400, height: 900 } });

test('WebRTC tiles keep their viewers and play on past the time the browser drops its unused ICE-TCP connections', async ({
  page,
  consoleServer,
}, testInfo) => {
  test.setTimeout(90_000);
  const api = (await (await fetch(`${consoleServer.url}/api`)).json()) as { rtsp: { listen: string } };
  const rtspPort = api.rtsp.listen.split(':').pop();
  const add = async (name: string, source: string) =>
    expect((await fetch(`${consoleServer.url}/api/streams?name=${name}&src=${encodeURIComponent(source)}`, { method: 'PUT' })).status).toBe(
      200,
    );
  // One camera; the tiles read it through the relay's RTSP, so six tiles cost one encoder.
  await add('a-0-steady-camera', CAMERA);
  for (const name of TILES) await add(name, `rtsp://127.0.0.1:${rtspPort}/a-0-steady-camera`);

  const live = new LivePage(page, consoleServer.url);
  await live.open();
  for (const name of TILES) {
    await expect(live.mode(name)).toHaveText('WebRTC', { timeout: 30_000 });
    await expect(live.state(name)).toHaveText('live', { timeout: 30_000 });
  }

  // Sampled every 2 s for 35 s: each tile keeps the one WebRTC viewer it started with (the same
  // viewer address: a reconnect comes from another port), never none.
  const viewers = async () => {
    const streams = (await (await fetch(`${consoleServer.url}/api/streams`)).json()) as Record<
      string,
      { consumers?: Array<{ remote_addr?: string; format_name?: string }> }
    >;
    return TILES.map((name) =>
      (streams[name]?.consumers ?? [])
        .filter((c) => c.format_name === 'webrtc')
        .map((c) => c.remote_addr)
        .join(','),
    ).join(' ');
  };
  const first = await viewers();
  expect(
    first.split(' ').every((viewer) => /^[\d.:[\]a-f]+:\d+$/.test(viewer)),
    `one viewer per tile: ${first}`,
  ).toBe(true);
  const until = Date.now() + 35_000;
  const changed: string[] = [];
  await expect
    .poll(
      async () => {
        const now = await viewers();
        if (now !== first) changed.push(`${Math.round((until - Date.now()) / 1000)} s before the end: ${now}`);
        return Date.now() >= until;
      },
      { intervals: [2_000], timeout: 45_000 },
    )
    .toBe(true);
  expect(changed, `the viewers at the start were ${first}`).toEqual([]);
  for (const name of TILES) await expect(live.state(name)).toHaveText('live');
  await page.screenshot({ path: testInfo.outputPath('webrtc-steady.png') });
});
