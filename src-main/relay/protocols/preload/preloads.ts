import type { Logger } from '@main/platform/logger';
import type { ConnectionInfo } from '../../core/producer';
import type { StreamRegistry } from '../../core/stream-registry';
import { requestsFromQuery } from '../rtsp/media-query';
import { PreloadConsumer } from './preload-consumer';

/** `preload:` of the config: stream name → the tracks to keep running (`video&audio` when empty). */
function readPreloadSection(value: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (!value || typeof value !== 'object' || Array.isArray(value)) return out;
  for (const [name, query] of Object.entries(value as Record<string, unknown>))
    out.set(name, typeof query === 'string' && query !== '' ? query : 'video&audio');
  return out;
}

/** Only the track keys go2rtc keeps (`video`, `audio`, `microphone`), in the order given. */
export function preloadQuery(query: URLSearchParams): string {
  const kept = new URLSearchParams();
  for (const [key, value] of query) if (key === 'video' || key === 'audio' || key === 'microphone') kept.append(key, value);
  return kept.toString().replace(/=(&|$)/g, '$1') || 'video&audio';
}

interface Preload {
  query: string;
  consumer?: PreloadConsumer;
  /** Why the last attach failed (no such stream, no source reachable). */
  error?: string;
  retry?: NodeJS.Timeout;
  /** An attach is under way (the source is being dialed). */
  attaching?: boolean;
}

const RETRY_MS = 5_000;

/**
 * The streams kept running without a viewer. Each is a consumer attached to its stream; when
 * the stream is replaced or its source gives up, the preload attaches again a few seconds
 * later, for as long as it is wanted.
 */
export class Preloads {
  private readonly wanted = new Map<string, Preload>();

  constructor(
    private readonly streams: StreamRegistry,
    private readonly logger: Logger,
  ) {}

  /** Makes the running preloads those of the config section. */
  sync(section: unknown): void {
    const config = readPreloadSection(section);
    for (const name of [...this.wanted.keys()]) if (!config.has(name)) this.remove(name);
    for (const [name, query] of config) {
      const current = this.wanted.get(name);
      if (current && current.query === query && (current.consumer || current.retry || current.attaching)) continue;
      void this.add(name, query).catch(() => undefined);
    }
  }

  /** Starts (or restarts with other tracks) a preload; rejects when the stream does not exist or cannot attach. */
  async add(name: string, query: string): Promise<void> {
    this.remove(name);
    const preload: Preload = { query };
    this.wanted.set(name, preload);
    await this.attach(name, preload);
  }

  remove(name: string): boolean {
    const preload = this.wanted.get(name);
    if (!preload) return false;
    this.wanted.delete(name);
    clearTimeout(preload.retry);
    const consumer = preload.consumer;
    preload.consumer = undefined;
    if (consumer) this.streams.get(name)?.removeConsumer(consumer);
    return true;
  }

  /** GET /api/preload: each preload's consumer (as /api/streams shows consumers) and its query. */
  list(): Record<string, { consumer: ConnectionInfo | null; query: string; error?: string }> {
    return Object.fromEntries(
      [...this.wanted].map(([name, preload]) => [
        name,
        { consumer: preload.consumer?.info() ?? null, query: preload.query, ...(preload.error ? { error: preload.error } : {}) },
      ]),
    );
  }

  close(): void {
    for (const name of [...this.wanted.keys()]) this.remove(name);
  }

  private async attach(name: string, preload: Preload): Promise<void> {
    const stream = this.streams.get(name);
    preload.attaching = true;
    try {
      if (!stream) throw new Error(`stream not found: ${name}`);
      const consumer = new PreloadConsumer(requestsFromQuery(new URLSearchParams(preload.query)), (reason) => {
        if (this.wanted.get(name) !== preload || preload.consumer !== consumer) return;
        preload.consumer = undefined;
        this.logger.info('preload detached; attaching again', { stream: name, reason });
        this.later(name, preload);
      });
      await stream.addConsumer(consumer);
      if (this.wanted.get(name) !== preload) {
        stream.removeConsumer(consumer);
        return;
      }
      preload.consumer = consumer;
      preload.error = undefined;
    } catch (error) {
      preload.error = (error as Error).message;
      this.logger.warn('preload could not attach; trying again', { stream: name, error: preload.error });
      this.later(name, preload);
      throw error;
    } finally {
      preload.attaching = false;
    }
  }

  private later(name: string, preload: Preload): void {
    clearTimeout(preload.retry);
    preload.retry = setTimeout(() => {
      preload.retry = undefined;
      if (this.wanted.get(name) === preload) void this.attach(name, preload).catch(() => undefined);
    }, RETRY_MS);
    preload.retry.unref();
  }
}
