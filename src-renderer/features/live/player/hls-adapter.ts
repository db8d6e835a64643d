import Hls from 'hls.js';
import { addChunk, mediaBitrate, mediaWindow } from './media-bitrate';
import type { AdapterEvents, AdapterTarget, PlayerAdapter } from './player-types';

/** HLS with fMP4 segments through hls.js (or the browser itself where it plays HLS natively). */
export function startHls(target: AdapterTarget, events: AdapterEvents): PlayerAdapter {
  const { video } = target;
  const url = `${target.base}/api/stream.m3u8?src=${encodeURIComponent(target.stream)}&mp4`;
  let stopped = false;
  let bytes = 0;
  video.addEventListener('playing', () => !stopped && events.onLive(), { once: true });

  if (!Hls.isSupported()) {
    video.src = url;
    video.addEventListener(
      'error',
      () => !stopped && events.onFailure({ reason: 'decode', detail: video.error?.message || 'HLS playback failed' }),
      { once: true },
    );
    void video.play().catch(() => undefined);
    return {
      bytes: () => bytes,
      stop() {
        stopped = true;
        video.removeAttribute('src');
        video.load();
      },
    };
  }

  // No retry of a refused manifest: the relay already took its time dialing the source, a second
  // ask would run into the player's first-picture timeout and hide its answer; the player retries.
  const hls = new Hls({ liveSyncDurationCount: 1, liveMaxLatencyDurationCount: 4, manifestLoadingMaxRetry: 0, levelLoadingMaxRetry: 2 });
  // Counted per loaded part or segment by its own payload. In low-latency mode hls.js fires this
  // for every part, and `frag.stats.total` is then its estimate of the whole segment so far
  // (loaded parts plus the ones to come): adding it up per part counted each segment several
  // times over (31.6 Mbit/s shown for a 5 Mbit/s camera).
  let received = mediaWindow();
  hls.on(Hls.Events.FRAG_LOADED, (_event, data) => {
    const size = data.payload.byteLength;
    bytes += size;
    received = addChunk(received, { bytes: size, seconds: (data.part ?? data.frag).duration });
  });
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (!data.fatal || stopped) return;
    const status = data.response?.code;
    // hls.js keeps only the status line; the relay's sentence (why the source is down) is the body.
    const body =
      data.networkDetails instanceof XMLHttpRequest && typeof data.networkDetails.response === 'string'
        ? data.networkDetails.responseText.trim().slice(0, 200)
        : '';
    events.onFailure(
      status && status >= 400
        ? { reason: 'endpoint', status, detail: body || `${data.details} (${data.response?.text?.slice(0, 120) ?? ''})` }
        : { reason: data.type === Hls.ErrorTypes.MEDIA_ERROR ? 'decode' : 'connection', detail: data.details },
    );
  });
  hls.loadSource(url);
  // The element gets its MediaSource only once the relay has a playlist. A camera that is down
  // answers the manifest at once; had the element been attached, tearing hls.js down could revoke
  // the MediaSource's blob: URL before the element had read it, and the element would then fetch
  // the revoked URL (net::ERR_FILE_NOT_FOUND) on every retry.
  hls.once(Hls.Events.MANIFEST_PARSED, () => {
    if (stopped) return;
    hls.attachMedia(video);
    void video.play().catch(() => undefined);
  });
  return {
    bytes: () => bytes,
    bitrate: () => mediaBitrate(received),
    stop() {
      stopped = true;
      hls.destroy();
    },
  };
}
