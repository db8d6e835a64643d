import type { Logger } from '../../platform/logger';
import type { SchemeRegistry } from './scheme-registry';
import { schemeOf } from './scheme-registry';
import { codeRunningScheme } from './code-running';
import { Stream } from './stream';
import type { TaskRegistry } from './task-registry';
import type { TrackOptions } from './track';
import type { ConnectionInfo } from './producer';

export class SourceRejectedError extends Error {
  override name = 'SourceRejectedError';
}

export interface StreamRegistry {
  get(name: string): Stream | undefined;
  names(): string[];
  /** Creates or replaces a stream's sources (after `checkSource` on each). */
  set(name: string, sources: string[]): Stream;
  delete(name: string): boolean;
  /**
   * Why a source cannot be used; from the API also code-running schemes and what a scheme keeps
   * to the config file. `streamName`: the stream the source is written under.
   */
  checkSource(source: string, origin: 'config' | 'api', streamName?: string): void;
  /**
   * Dials a source once outside every stream (the console's probe before saving) and hangs up:
   * what its producer shows while connected, or its error.
   */
  probeSource(source: string): Promise<ConnectionInfo & { url: string; error?: string }>;
  close(): void;
}

export interface StreamRegistryOptions {
  schemes: SchemeRegistry;
  logger: Logger;
  tasks: TaskRegistry;
  track?: Omit<TrackOptions, 'nextId'>;
  firstDialBudgetMs?: number;
  delay?: (attempt: number) => number;
}

const PROBE_BUDGET_MS = 3_000;

/** The streams of one relay instance. */
export function createStreamRegistry(options: StreamRegistryOptions): StreamRegistry {
  const streams = new Map<string, { stream: Stream; untrack: () => void }>();
  let nextId = 1;
  const track: TrackOptions = { ...options.track, nextId: () => nextId++ };

  return {
    get: (name) => streams.get(name)?.stream,
    names: () => [...streams.keys()].sort(),
    set(name, sources) {
      const existing = streams.get(name);
      if (existing) {
        existing.stream.setSources(sources);
        return existing.stream;
      }
      const stream = new Stream({
        name,
        sources,
        schemes: options.schemes,
        logger: options.logger,
        track,
        firstDialBudgetMs: options.firstDialBudgetMs,
        delay: options.delay,
      });
      streams.set(name, { stream, untrack: options.tasks.add('stream', name) });
      return stream;
    },
    delete(name) {
      const entry = streams.get(name);
      if (!entry) return false;
      streams.delete(name);
      entry.stream.close();
      entry.untrack();
      return true;
    },
    checkSource(source, origin, streamName) {
      if (source.trim() === '') throw new SourceRejectedError('streams: source is empty');
      const handler = options.schemes.resolve(source);
      if (origin === 'api') {
        const runsCode = codeRunningScheme(source, options.schemes);
        if (runsCode) throw new SourceRejectedError(`streams: source ${runsCode} runs commands and is accepted from the config file only`);
        const refused = handler?.refuseFromApi?.(source, streamName);
        if (refused) throw new SourceRejectedError(`streams: ${refused}`);
        // Whitespace has no place in a URL; in a source it is a command line.
        if (/\s/.test(source)) throw new SourceRejectedError('streams: a source with whitespace is accepted from the config file only');
      }
      if (!handler)
        throw new SourceRejectedError(
          `streams: source not supported: ${schemeOf(source) || source} (supported: ${options.schemes.schemes().join(', ')})`,
        );
    },
    async probeSource(source) {
      const stream = new Stream({
        name: 'probe',
        sources: [source],
        schemes: options.schemes,
        logger: options.logger,
        track,
        // Someone is waiting on a form: a dead source is said so after a couple of retries.
        firstDialBudgetMs: Math.min(options.firstDialBudgetMs ?? PROBE_BUDGET_MS, PROBE_BUDGET_MS),
        delay: options.delay,
      });
      try {
        const info = await stream.probe(() => stream.info());
        return info.producers[0] as ConnectionInfo & { url: string; error?: string };
      } finally {
        stream.close('probe done');
      }
    },
    close() {
      for (const [name] of streams) this.delete(name);
    },
  };
}
