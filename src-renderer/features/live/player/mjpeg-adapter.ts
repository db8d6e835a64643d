import { connectionFailure, endpointFailure } from './http-failure';
import { createMultipartJpegReader } from './multipart-jpeg';
import type { AdapterEvents, AdapterTarget, PlayerAdapter } from './player-types';

/**
 * MJPEG (`/api/stream.mjpeg?src=`) read with fetch and shown picture by picture, so the tile
 * knows the HTTP status, the bytes and each picture (an <img> on the multipart URL tells none).
 */
export function startMjpeg(target: AdapterTarget, events: AdapterEvents): PlayerAdapter {
  const abort = new AbortController();
  const { image } = target;
  let bytes = 0;
  let shown: string | undefined;
  let live = false;
  let pictures = 0;

  const show = (jpeg: Uint8Array) => {
    const next = URL.createObjectURL(new Blob([jpeg as BlobPart], { type: 'image/jpeg' }));
    image.onload = () => {
      if (!live) {
        live = true;
        events.onLive();
      }
    };
    image.src = next;
    pictures += 1;
    if (shown) URL.revokeObjectURL(shown);
    shown = next;
  };

  void (async () => {
    try {
      const response = await fetch(`${target.base}/api/stream.mjpeg?src=${encodeURIComponent(target.stream)}`, { signal: abort.signal });
      if (!response.ok || !response.body) return events.onFailure(await endpointFailure(response));
      const reader = response.body.getReader();
      const parts = createMultipartJpegReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return events.onFailure({ reason: 'offline', detail: 'the relay ended the MJPEG stream' });
        bytes += value.length;
        const pictures = parts.push(value);
        const newest = pictures.at(-1);
        if (newest) show(newest);
      }
    } catch (error) {
      if (!abort.signal.aborted) events.onFailure(connectionFailure(error));
    }
  })();

  return {
    bytes: () => bytes,
    pictures: () => pictures,
    stop() {
      abort.abort();
      if (shown) URL.revokeObjectURL(shown);
      image.removeAttribute('src');
    },
  };
}
