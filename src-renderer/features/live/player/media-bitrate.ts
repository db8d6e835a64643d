/** A piece of media as it arrived: its bytes and how much playing time it holds. */
export interface MediaChunk {
  bytes: number;
  seconds: number;
}

/** The last chunks received, newest last, holding about `windowSeconds` of media. */
export interface MediaWindow {
  chunks: readonly MediaChunk[];
  windowSeconds: number;
}

export const mediaWindow = (windowSeconds = 4): MediaWindow => ({ chunks: [], windowSeconds });

/**
 * The window with one more chunk, dropping the oldest ones beyond its span of media. A chunk
 * without playing time (an init segment) carries no picture and is left out: counted, it would
 * raise the rate with bytes that do not repeat.
 */
export function addChunk(window: MediaWindow, chunk: MediaChunk): MediaWindow {
  if (!(chunk.seconds > 0) || !(chunk.bytes >= 0)) return window;
  const chunks = [...window.chunks, chunk];
  let span = chunks.reduce((sum, c) => sum + c.seconds, 0);
  while (chunks.length > 1 && span - chunks[0]!.seconds >= window.windowSeconds) span -= chunks.shift()!.seconds;
  return { ...window, chunks };
}

/**
 * The media's bitrate: bits received per second of media, over the window. HLS arrives in bursts
 * (a segment or part fetched as fast as the network goes), so bytes per second of wall time
 * would show the download speed in one sample and nothing in the next.
 */
export function mediaBitrate(window: MediaWindow): number | undefined {
  const seconds = window.chunks.reduce((sum, c) => sum + c.seconds, 0);
  if (seconds <= 0) return undefined;
  return Math.round((window.chunks.reduce((sum, c) => sum + c.bytes, 0) * 8) / seconds);
}
