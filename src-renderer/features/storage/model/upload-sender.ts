/** A file's bytes as the sender reads them (a browser Blob or File). */
export interface ByteSource {
  size: number;
  slice(start: number, end: number): Blob;
}

export type Fetch = (url: string, init?: RequestInit) => Promise<Pick<Response, 'status' | 'json'>>;

export interface SendOptions {
  fetch: Fetch;
  /** `/console/transfers/<id>` on the console's own origin. */
  url: string;
  chunkBytes?: number;
  signal?: AbortSignal;
  onSent?(received: number): void;
  /** Waits between attempts while the console is unreachable (restarting). */
  retryDelaysMs?: readonly number[];
  sleep?(ms: number): Promise<void>;
}

/** `paused`: the user paused the upload; the page keeps the file until it is resumed. */
export type SendOutcome = 'sent' | 'gone' | 'aborted' | 'paused';

/** The console's answer: bytes it holds, and whether the user paused the upload meanwhile. */
interface Progress {
  received: number;
  paused?: boolean;
}

const DEFAULT_DELAYS = [250, 500, 1000, 2000, 4000, 4000, 4000, 4000, 4000, 4000];

/**
 * Sends one file to the console in ranges, in order. Where to start is asked first, so a send
 * interrupted by a reload of the console goes on from what arrived; a 409 says where the
 * console really is. Ends `gone` when the console no longer waits for this file (canceled), and
 * `paused` when the console answers that the user paused it: what was sent stays with it.
 */
export async function sendFileBytes(file: ByteSource, options: SendOptions): Promise<SendOutcome> {
  const chunk = options.chunkBytes ?? 8 * 1024 * 1024;
  const delays = options.retryDelaysMs ?? DEFAULT_DELAYS;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let failures = 0;
  let offset: number | undefined;

  for (;;) {
    if (options.signal?.aborted) return 'aborted';
    try {
      if (offset === undefined) {
        const answer = await options.fetch(options.url, {
          method: 'GET',
          cache: 'no-store',
          ...(options.signal ? { signal: options.signal } : {}),
        });
        if (answer.status === 404) return 'gone';
        if (answer.status !== 200) throw new Error(`HTTP ${answer.status}`);
        const where = (await answer.json()) as Progress;
        if (where.paused) return 'paused';
        offset = where.received;
      }
      if (offset >= file.size) return 'sent';
      const end = Math.min(offset + chunk, file.size);
      const answer = await options.fetch(options.url, {
        method: 'PUT',
        body: file.slice(offset, end),
        headers: { 'Content-Range': `bytes ${offset}-${end - 1}/${file.size}` },
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (answer.status === 404) return 'gone';
      if (answer.status === 409) {
        offset = ((await answer.json()) as { received: number }).received;
        continue;
      }
      if (answer.status !== 200) throw new Error(`HTTP ${answer.status}`);
      const where = (await answer.json()) as Progress;
      if (where.paused) return 'paused';
      offset = where.received;
      failures = 0;
      options.onSent?.(offset);
    } catch (error) {
      if (options.signal?.aborted) return 'aborted';
      const delay = delays[failures++];
      if (delay === undefined) throw error instanceof Error ? error : new Error(String(error));
      // Ask again where to go on: the console may have kept part of the last range.
      offset = undefined;
      await sleep(delay);
    }
  }
}
