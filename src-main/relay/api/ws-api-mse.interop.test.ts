import { describe, expect, it } from 'vitest';
import { relayInChromium } from '../test/chromium-kit';
import { waitFor } from '../test/relay-test-kit';

/** The MSE mode of go2rtc's WebSocket API, played by Chromium's MediaSource as go2rtc's player does. */
describe('/api/ws MSE in Chromium', () => {
  const live = relayInChromium('  cam: ffmpeg:virtual?video=testsrc&size=320x240#video=h264\n');

  it('answers the codecs the browser plays with a MIME type, then fMP4 the MediaSource plays at the source size', async () => {
    const mime = await live.page.evaluate(
      async (url) => {
        const candidates = ['avc1.640029', 'avc1.64002A', 'avc1.640033', 'hvc1.1.6.L153.B0', 'mp4a.40.2', 'mp4a.40.5', 'flac', 'opus'];
        const codecs = candidates.filter((c) => MediaSource.isTypeSupported(`video/mp4; codecs="${c}"`)).join(',');
        const video = document.createElement('video');
        video.muted = true;
        video.autoplay = true;
        video.id = 'mse';
        document.body.append(video);
        const ws = new WebSocket(url);
        ws.binaryType = 'arraybuffer';
        const opened = new Promise((resolve) => (ws.onopen = resolve));
        const source = new MediaSource();
        video.src = URL.createObjectURL(source);
        await new Promise((resolve) => source.addEventListener('sourceopen', resolve, { once: true }));
        const queue: ArrayBuffer[] = [];
        let buffer: SourceBuffer | undefined;
        const pump = () => {
          if (buffer && !buffer.updating && queue.length > 0) buffer.appendBuffer(queue.shift()!);
        };
        const announced = new Promise<string>((resolve) => {
          ws.onmessage = (event) => {
            if (typeof event.data === 'string') {
              const message = JSON.parse(event.data) as { type: string; value: string };
              if (message.type === 'mse') {
                buffer = source.addSourceBuffer(message.value);
                buffer.addEventListener('updateend', pump);
                resolve(message.value);
              }
              return;
            }
            queue.push(event.data as ArrayBuffer);
            pump();
          };
        });
        await opened;
        ws.send(JSON.stringify({ type: 'mse', value: codecs }));
        (window as unknown as Record<string, WebSocket>).socket = ws;
        return announced;
      },
      `${live.relay.api.replace('http', 'ws')}/api/ws?src=cam`,
    );
    expect(mime).toMatch(/^video\/mp4; codecs="avc1\.[0-9A-Fa-f]{6}"$/);

    const played = await live.page.waitForFunction(
      () => {
        const video = document.getElementById('mse') as HTMLVideoElement;
        return video.videoWidth > 0 && video.currentTime > 1 ? { width: video.videoWidth, height: video.videoHeight } : false;
      },
      undefined,
      { timeout: 30_000 },
    );
    expect(await played.jsonValue()).toEqual({ width: 320, height: 240 });

    const mseViewers = async () =>
      (
        (await (await fetch(`${live.relay.api}/api/streams?src=cam`)).json()) as { consumers: Array<{ format_name: string }> }
      ).consumers.filter((c) => c.format_name === 'mse').length;
    expect(await mseViewers()).toBe(1);
    await live.page.evaluate(() => (window as unknown as Record<string, WebSocket>).socket!.close());
    await waitFor(async () => ((await mseViewers()) === 0 ? true : undefined), 15_000);
  }, 90_000);

  it('says which codecs it could not match', async () => {
    const answer = await live.page.evaluate(
      async (url) => {
        const ws = new WebSocket(url);
        await new Promise((resolve) => (ws.onopen = resolve));
        const reply = new Promise<string>((resolve) => (ws.onmessage = (event) => resolve(event.data as string)));
        ws.send(JSON.stringify({ type: 'mse', value: 'vp09.00.10.08' }));
        return reply;
      },
      `${live.relay.api.replace('http', 'ws')}/api/ws?src=cam`,
    );
    expect(JSON.parse(answer)).toEqual({
      type: 'error',
      value: 'none of the codecs the browser plays (vp09.00.10.08) is one the relay sends in MP4',
    });
  }, 30_000);
});
