/** What the probe saw in a page, on `window.firstFrame`. Times are ms since navigation started. */
export interface FirstFrame {
  /** When the page made its first WebSocket (the player connecting). */
  socketAt: number | null;
  /** When the first JSON message came back on it (the server's answer to the player's request). */
  answerAt: number | null;
  /** When the first picture was shown: a decoded video frame, or a JPEG poster decoded. */
  frameAt: number | null;
  width: number;
  height: number;
  /** `video` (a frame presented) or `jpeg` (a poster image decoded). */
  shownAs: string;
  /** The first media error of a video, as Chromium words it (`MEDIA_ERR_...: message`). */
  mediaError: string;
  /** Types of the JSON messages the player sent and received, in order (`>` sent, `<` received). */
  messages: string[];
}

/**
 * Runs in a page before its own scripts (serialized by playwright: it may use nothing from
 * outside). Notes when the page makes its first WebSocket and when the first picture is shown
 * by any `<video>` in the document: the first frame presented (requestVideoFrameCallback), or,
 * for players that show JPEG pictures as the video's poster (go2rtc's MJPEG mode), the first
 * poster decoded. Also keeps the types of the messages on the sockets, to say why nothing played.
 */
export function installFirstFrameProbe(): void {
  const probe = {
    socketAt: null,
    answerAt: null,
    frameAt: null,
    width: 0,
    height: 0,
    shownAs: '',
    mediaError: '',
    messages: [],
  } as FirstFrame;
  (window as unknown as { firstFrame: FirstFrame }).firstFrame = probe;
  const shown = (at: number, width: number, height: number, shownAs: string) => {
    if (probe.frameAt === null) Object.assign(probe, { frameAt: at, width, height, shownAs });
  };
  const typeOf = (data: unknown) => {
    if (typeof data !== 'string') return 'binary';
    try {
      return String((JSON.parse(data) as { type?: unknown }).type);
    } catch {
      return 'text';
    }
  };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      probe.socketAt ??= performance.now();
      this.addEventListener('message', (event) => {
        if (typeof event.data !== 'string') return;
        probe.answerAt ??= performance.now();
        probe.messages.push(`< ${typeOf(event.data)}`);
      });
    }
    override send(data: string | ArrayBufferLike | Blob | ArrayBufferView) {
      probe.messages.push(`> ${typeOf(data)}`);
      super.send(data);
    }
  };
  const watched = new WeakSet<HTMLVideoElement>();
  const watch = (video: HTMLVideoElement) => {
    if (watched.has(video)) return;
    watched.add(video);
    video.requestVideoFrameCallback((now, frame) => shown(now, frame.width, frame.height, 'video'));
    const codes = ['', 'MEDIA_ERR_ABORTED', 'MEDIA_ERR_NETWORK', 'MEDIA_ERR_DECODE', 'MEDIA_ERR_SRC_NOT_SUPPORTED'];
    video.addEventListener('error', () => {
      if (!probe.mediaError && video.error) probe.mediaError = `${codes[video.error.code] ?? video.error.code}: ${video.error.message}`;
    });
    new MutationObserver(() => {
      if (!video.poster.startsWith('data:image/')) return;
      const image = new Image();
      image.src = video.poster;
      void image.decode().then(
        () => shown(performance.now(), image.naturalWidth, image.naturalHeight, 'jpeg'),
        () => undefined,
      );
    }).observe(video, { attributes: true, attributeFilter: ['poster'] });
  };
  new MutationObserver(() => document.querySelectorAll('video').forEach(watch)).observe(document, { childList: true, subtree: true });
}
