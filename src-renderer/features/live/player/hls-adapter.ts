import type Hls from 'hls.js';
import { addChunk, mediaBitrate, mediaWindow } from './media-bitrate';
import type { AdapterEvents, AdapterTarget, PlayerAdapter } from './player-types';

/** HLS with fMP4 segments through hls.js (or the browser itself where it plays HLS natively). */
export function startHls(target: AdapterTarget, events: AdapterEvents): PlayerAdapter {
  const { video } = target;
  const url = `${target.base}/api/stream.m3u8?src=${encodeURIComponent(target.stream)}&mp4`;
  let stopped = false;
  let bytes = 0;
  video.addEventListener('playing', () => !stopped && events.onLive(), { once: true });

  const playNatively = () => {
    video.src = url;
    video.addEventListener(
      'error',
      () => !stopped && events.onFailure({ reason: 'decode', detail: video.error?.message || 'HLS playback failed' }),
      { once: true },
    );
    void video.play().catch(() => undefined);
  };

  let hls: Hls | undefined;
  let received = mediaWindow();
  // hls.js (a third of the console's code) is fetched when a tile first plays HLS, not at start.
  void import('hls.js').then(
    ({ default: HlsJs }) => {
      if (stopped) return;
      if (!HlsJs.isSupported()) {
        playNatively();
        return;
      }
      hls = attachHls(
        HlsJs,
        url,
        video,
        events,
        () => stopped,
        (size, seconds) => {
          bytes += size;
          received = addChunk(received, { bytes: size, seconds });
        },
      );
    },
    (error: unknown) => !stopped && events.onFailure({ reason: 'connection', detail: `hls.js did not load: ${String(error)}` }),
  );

  return {
    bytes: () => bytes,
    bitrate: () => mediaBitrate(received),
    stop() {
      stopped = true;
      if (hls) hls.destroy();
      else if (video.getAttribute('src') === url) {
        video.removeAttribute('src');
        video.load();
      }
    },
  };
}

/** hls.js on the relay's fMP4 playlist; `onFragment` counts each loaded part or segment. */
function attachHls(
  HlsJs: typeof Hls,
  url: string,
  video: HTMLVideoElement,
  events: AdapterEvents,
  isStopped: () => boolean,
  onFragment: (bytes: number, seconds: number) => void,
): Hls {
  // No retry of a refused manifest: the relay already took its time dialing the source, a second
  // ask would run into the player's first-picture timeout and hide its answer; the player retries.
  const hls = new HlsJs({ liveSyncDurationCount: 1, liveMaxLatencyDurationCount: 4, manifestLoadingMaxRetry: 0, levelLoadingMaxRetry: 2 });
  // Counted per loaded part or segment by its own payload. In low-latency mode hls.js fires this
  // for every part, and `frag.stats.total` is then its estimate of the whole segment so far
  // (loaded parts plus the ones to come): adding it up per part counted each segment several
  // times over (31.6 Mbit/s shown for a 5 Mbit/s camera).
  hls.on(HlsJs.Events.FRAG_LOADED, (_event, data) => onFragment(data.payload.byteLength, (data.part ?? data.frag).duration));
  hls.on(HlsJs.Events.ERROR, (_event, data) => {
    if (!data.fatal || isStopped()) return;
    const status = data.response?.code;
    // hls.js keeps only the status line; the relay's sentence (why the source is down) is the body.
    const body =
      data.networkDetails instanceof XMLHttpRequest && typeof data.networkDetails.response === 'string'
        ? data.networkDetails.responseText.trim().slice(0, 200)
        : '';
    events.onFailure(
      status && status >= 400
        ? { reason: 'endpoint', status, detail: body || `${data.details} (${data.response?.text?.slice(0, 120) ?? ''})` }
        : { reason: data.type === HlsJs.ErrorTypes.MEDIA_ERROR ? 'decode' : 'connection', detail: data.details },
    );
  });
  hls.loadSource(url);
  // The element gets its MediaSource only once the relay has a playlist. A camera that is down
  // answers the manifest at once; had the element been attached, tearing hls.js down could revoke
  // the MediaSource's blob: URL before the element had read it, and the element would then fetch
  // the revoked URL (net::ERR_FILE_NOT_FOUND) on every retry.
  hls.once(HlsJs.Events.MANIFEST_PARSED, () => {
    if (isStopped()) return;
    hls.attachMedia(video);
    void video.play().catch(() => undefined);
  });
  return hls;
}
