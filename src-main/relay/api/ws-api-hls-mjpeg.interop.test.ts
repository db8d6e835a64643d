import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { WebSocket as NodeWebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { relayInChromium } from '../test/chromium-kit';
import { run, waitFor } from '../test/relay-test-kit';

interface Reply {
  texts: Array<{ type: string; value?: string }>;
  binaries: Buffer[];
}

/**
 * The HLS and MJPEG modes of go2rtc's WebSocket API, in the order its player uses them: `hls`
 * with the browser's codecs gets a master playlist whose session hls.js plays in Chromium;
 * `mjpeg` gets `{"type": "mjpeg"}`, then JPEG pictures in binary messages.
 */
describe('/api/ws HLS and MJPEG modes', () => {
  const live = relayInChromium('  cam: ffmpeg:virtual?video=testsrc&size=320x240#video=h264\n');

  /** Opens the socket, sends `message`, collects what comes back until `done` says so; the socket stays open. */
  const ask = (message: object, done: (reply: Reply) => boolean) =>
    new Promise<{ socket: NodeWebSocket; reply: Reply }>((resolve, reject) => {
      const socket = new NodeWebSocket(`${live.relay.api.replace('http', 'ws')}/api/ws?src=cam`);
      const reply: Reply = { texts: [], binaries: [] };
      const timer = setTimeout(
        () => reject(new Error(`no full reply: ${JSON.stringify(reply.texts)}, ${reply.binaries.length} binary`)),
        20_000,
      );
      socket.on('open', () => socket.send(JSON.stringify(message)));
      socket.on('message', (data, isBinary) => {
        if (isBinary) reply.binaries.push(data as Buffer);
        else reply.texts.push(JSON.parse(data.toString()) as Reply['texts'][number]);
        if (done(reply)) {
          clearTimeout(timer);
          resolve({ socket, reply });
        }
      });
    });
  const consumers = async () =>
    ((await (await fetch(`${live.relay.api}/api/streams?src=cam`)).json()) as { consumers: Array<{ format_name: string }> }).consumers.map(
      (c) => c.format_name,
    );

  it('hls: the master playlist of an fMP4 session, which hls.js plays at the source size', async () => {
    const { socket, reply } = await ask({ type: 'hls', value: 'avc1.640029,avc1.64002A,mp4a.40.2,opus' }, (r) => r.texts.length > 0);
    socket.close();
    const [message] = reply.texts;
    expect(message?.type).toBe('hls');
    const master = message!.value!;
    expect(master).toMatch(/^#EXTM3U\n/);
    expect(master).toMatch(/CODECS="avc1\.[0-9a-fA-F]{6}"/);
    const uri = /^hls\/playlist\.m3u8\?id=[\w-]+$/m.exec(master)?.[0];
    expect(uri).toBeDefined();
    // go2rtc's player puts the API's address before `hls/`.
    const media = await (await fetch(`${live.relay.api}/api/${uri}`)).text();
    expect(media).toContain('#EXT-X-MAP:URI="init.mp4?id=');
    expect(await consumers()).toContain('hls/fmp4');

    const require = createRequire(import.meta.url);
    await live.page.addScriptTag({ path: require.resolve('hls.js/dist/hls.min.js') });
    await live.page.evaluate((url) => {
      const video = document.createElement('video');
      video.id = 'hls';
      video.muted = true;
      video.autoplay = true;
      document.body.append(video);
      const hls = new (
        window as unknown as { Hls: new () => { loadSource(u: string): void; attachMedia(v: HTMLVideoElement): void; destroy(): void } }
      ).Hls();
      hls.loadSource(url);
      hls.attachMedia(video);
      (window as unknown as { hls: typeof hls }).hls = hls;
    }, `${live.relay.api}/api/${uri}`);
    // A live playlist starts where the stream's clock is: frames advance once currentTime moves on from its first value.
    const started = await live.page
      .waitForFunction(
        () => {
          const video = document.getElementById('hls') as HTMLVideoElement;
          return video.videoWidth > 0 && video.currentTime > 0 && video.currentTime;
        },
        undefined,
        { timeout: 30_000 },
      )
      .then((h) => h.jsonValue() as Promise<number>);
    const played = await live.page
      .waitForFunction(
        (started) => {
          const video = document.getElementById('hls') as HTMLVideoElement;
          return video.currentTime > started + 1 && { width: video.videoWidth, height: video.videoHeight, advanced: true };
        },
        started,
        { timeout: 30_000 },
      )
      .then((h) => h.jsonValue());
    await live.page.evaluate(() => (window as unknown as { hls: { destroy(): void } }).hls.destroy());
    expect(played).toEqual({ width: 320, height: 240, advanced: true });
  }, 90_000);

  it('hls: codecs the relay cannot send in HLS are an error message naming them', async () => {
    const { socket, reply } = await ask({ type: 'hls', value: 'vp09.00.10.08' }, (r) => r.texts.length > 0);
    socket.close();
    expect(reply.texts).toEqual([
      { type: 'error', value: 'none of the codecs the browser plays (vp09.00.10.08) is one the relay sends in HLS' },
    ]);
  });

  it('mjpeg: {"type": "mjpeg"} first, then whole JPEG pictures of the stream; the viewer ends with the socket', async () => {
    const { socket, reply } = await ask({ type: 'mjpeg' }, (r) => r.binaries.length >= 5);
    expect(reply.texts).toEqual([{ type: 'mjpeg' }]);
    for (const jpeg of reply.binaries) {
      expect([...jpeg.subarray(0, 2)]).toEqual([0xff, 0xd8]);
      expect([...jpeg.subarray(-2)]).toEqual([0xff, 0xd9]);
    }
    expect(await consumers()).toContain('mjpeg');
    // A picture is a JPEG of the source's size, as ffprobe reads it.
    const file = join(tmpdir(), `ws-mjpeg-${process.pid}.jpg`);
    await writeFile(file, reply.binaries.at(-1)!);
    const probed = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,width,height', '-of', 'csv=p=0', file]);
    expect(probed.stdout.trim()).toBe('mjpeg,320,240');
    socket.close();
    await waitFor(async () => (!(await consumers()).includes('mjpeg') ? true : undefined), 15_000);
  }, 60_000);

  it('modes need a stream; unknown modes say which there are', async () => {
    const errorOf = (url: string, message: object) =>
      new Promise<unknown>((resolve) => {
        const socket = new NodeWebSocket(url);
        socket.on('open', () => socket.send(JSON.stringify(message)));
        socket.on('message', (data) => {
          resolve(JSON.parse(data.toString()));
          socket.close();
        });
      });
    const ws = live.relay.api.replace('http', 'ws');
    expect(await errorOf(`${ws}/api/ws?src=nope`, { type: 'mjpeg' })).toEqual({ type: 'error', value: 'stream not found: nope' });
    expect(await errorOf(`${ws}/api/ws?dst=cam`, { type: 'hls' })).toEqual({
      type: 'error',
      value: 'hls needs ?src=<stream> on the socket URL',
    });
    expect(await errorOf(`${ws}/api/ws?src=cam`, { type: 'flv' })).toEqual({
      type: 'error',
      value: 'flv is not a mode of this API: use webrtc/offer, mse, hls or mjpeg',
    });
  });
});
