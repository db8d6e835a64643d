import { assertLearnedUrl } from '../../core/learned-url';
import { firstVariant, parseMediaPlaylist } from './hls-playlist';

/** Bytes of a source, pushed as they come; resolves when the source ends, rejects when it fails. */
export type Pump = (push: (chunk: Uint8Array) => void) => Promise<void>;

const POLL_INTERVAL_MS = 200;
const MAX_JPEG_BYTES = 16 * 1024 * 1024;

/** GETs an http(s) URL; fetch follows a redirect only to another http(s) URL, never to a file. */
export async function fetchOk(url: string, signal: AbortSignal): Promise<Response> {
  const response = await fetch(url, { signal, redirect: 'follow' }).catch((error: Error) => {
    if (signal.aborted) throw error;
    // fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND...) is in its cause.
    const reason =
      (error.cause as { code?: string; message?: string } | undefined)?.code ??
      (error.cause as Error | undefined)?.message ??
      error.message;
    throw new Error(`${redactUrl(url)}: ${reason}`, { cause: error });
  });
  if (!response.ok) {
    await response.body?.cancel();
    // `status` lets the source runner tell a refusal (401, 403, 404) from a camera still starting.
    throw Object.assign(new Error(`HTTP ${response.status} ${response.statusText} from ${redactUrl(url)}`), { status: response.status });
  }
  return response;
}

export const redactUrl = (url: string): string => url.replace(/\/\/[^/@]*@/, '//***@');

/** A response body read to its end (MJPEG, FLV and MPEG-TS sources stream forever). */
export function streamBody(response: Response, first: Uint8Array): Pump {
  return async (push) => {
    push(first);
    const reader = response.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      push(value);
    }
  };
}

/** The rest of a body whose first chunk was read already (to tell its format). */
export async function readRest(response: Response, first: Uint8Array, limit = MAX_JPEG_BYTES): Promise<Buffer> {
  const parts = [Buffer.from(first)];
  let size = first.length;
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(parts);
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      throw new Error(`a single answer of more than ${limit} bytes is not a picture or a playlist`);
    }
    parts.push(Buffer.from(value));
  }
}

/** A camera that serves one JPEG per request: asked again and again, at most 5 times a second. */
export function pollJpeg(url: string, first: Uint8Array, firstRest: Response, signal: AbortSignal): Pump {
  return async (push) => {
    push(await readRest(firstRest, first));
    while (!signal.aborted) {
      const started = Date.now();
      const response = await fetchOk(url, signal);
      const picture = new Uint8Array(await response.arrayBuffer());
      if (picture.length > MAX_JPEG_BYTES)
        throw new Error(`a picture of ${picture.length} bytes from ${redactUrl(url)} is larger than any camera's`);
      push(picture);
      await sleep(Math.max(0, POLL_INTERVAL_MS - (Date.now() - started)), signal);
    }
  };
}

/**
 * An HLS source (MPEG-TS segments): the first variant of a master playlist, its segments read in
 * order as the playlist grows, starting with the newest few so the stream is live at once.
 */
export function readHls(url: string, firstText: string, signal: AbortSignal): Pump {
  return async (push) => {
    let playlistUrl = url;
    let text = firstText;
    // A playlist names further URLs: they are fetched only over http and https.
    const learned = (address: string, from: string) =>
      assertLearnedUrl(address, `the HLS playlist ${redactUrl(from).replace(/[?#].*$/, '')}`, ['http', 'https']).href;
    const variant = firstVariant(text, url);
    if (variant) {
      playlistUrl = learned(variant, url);
      text = await (await fetchOk(playlistUrl, signal)).text();
    }
    let next: number | undefined;
    for (;;) {
      const playlist = parseMediaPlaylist(text, playlistUrl);
      if (playlist.initSegment) throw new Error('HLS: fMP4 segments (EXT-X-MAP) are not supported by this source; MPEG-TS segments are');
      next ??= Math.max(playlist.mediaSequence, playlist.mediaSequence + playlist.segments.length - 3);
      for (const segment of playlist.segments) {
        if (segment.sequence < next) continue;
        push(new Uint8Array(await (await fetchOk(learned(segment.url, playlistUrl), signal)).arrayBuffer()));
        next = segment.sequence + 1;
      }
      if (playlist.ended) return;
      await sleep((playlist.targetDuration * 1000) / 2, signal);
      text = await (await fetchOk(playlistUrl, signal)).text();
    }
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}
