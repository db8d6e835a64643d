import { mseCodecs } from './browser-capabilities';
import { catchUpTarget, toRanges, trimRange } from './live-edge';
import type { AdapterEvents, AdapterTarget, PlayerAdapter } from './player-types';

/**
 * fMP4 over go2rtc's WebSocket API (`/api/ws?src=`): the page says which codecs MSE takes, the
 * relay answers with the MIME type it will send, then binary fragments. Fragments that arrive
 * while the buffer is busy wait in a queue; playback is kept near the live edge.
 */
export function startMse(target: AdapterTarget, events: AdapterEvents): PlayerAdapter {
  const { video } = target;
  const source = new MediaSource();
  const objectUrl = URL.createObjectURL(source);
  const ws = new WebSocket(`${target.base.replace(/^http/, 'ws')}/api/ws?src=${encodeURIComponent(target.stream)}`);
  ws.binaryType = 'arraybuffer';
  let stopped = false;
  let bytes = 0;
  let buffer: SourceBuffer | undefined;
  const queue: ArrayBuffer[] = [];

  const fail = (detail: string, reason: 'connection' | 'decode' | 'offline' = 'connection') => {
    if (!stopped) events.onFailure({ reason, detail });
  };
  const pump = () => {
    if (!buffer || buffer.updating || stopped) return;
    const next = queue.shift();
    try {
      if (next) return buffer.appendBuffer(next);
      const ranges = toRanges(buffer.buffered);
      const trim = trimRange(ranges, video.currentTime);
      if (trim) return buffer.remove(trim[0], trim[1]);
      const target = catchUpTarget(ranges, video.currentTime);
      if (target !== undefined) video.currentTime = target;
    } catch (error) {
      fail(`the browser refused the media: ${(error as Error).message}`, 'decode');
    }
  };

  video.src = objectUrl;
  video.addEventListener('playing', () => !stopped && events.onLive(), { once: true });
  video.addEventListener('error', () => fail(video.error?.message || 'the video element could not decode the stream', 'decode'), {
    once: true,
  });
  // The request goes once both ends are ready, whichever is first; a second one is an error.
  let asked = false;
  const ask = () => {
    if (asked || ws.readyState !== WebSocket.OPEN || source.readyState !== 'open') return;
    asked = true;
    ws.send(JSON.stringify({ type: 'mse', value: mseCodecs() }));
  };
  source.addEventListener('sourceopen', ask, { once: true });
  ws.addEventListener('open', ask);
  ws.addEventListener('message', (event) => {
    if (typeof event.data !== 'string') {
      bytes += (event.data as ArrayBuffer).byteLength;
      queue.push(event.data as ArrayBuffer);
      if (queue.length > 200) return fail('the browser cannot keep up with the stream', 'decode');
      return pump();
    }
    const message = JSON.parse(event.data) as { type: string; value?: string };
    if (message.type === 'error') return fail(message.value ?? 'the relay refused the stream', 'offline');
    if (message.type !== 'mse' || buffer || !message.value) return;
    try {
      buffer = source.addSourceBuffer(message.value);
      buffer.mode = 'segments';
      buffer.addEventListener('updateend', pump);
      void video.play().catch(() => undefined);
    } catch (error) {
      fail(`MSE cannot play ${message.value}: ${(error as Error).message}`, 'decode');
    }
  });
  ws.addEventListener('close', (event) => fail(event.reason || 'the relay closed the WebSocket'));

  return {
    bytes: () => bytes,
    stop() {
      stopped = true;
      ws.close();
      video.removeAttribute('src');
      video.load();
      URL.revokeObjectURL(objectUrl);
    },
  };
}
