import type { ConfigObject, WriteGuard } from '../platform/config/config-store';
import { codeRunningScheme } from './core/code-running';
import type { SchemeRegistry } from './core/scheme-registry';
import { SourceRejectedError } from './core/stream-registry';
import { readStreamsSection } from './streams-config';

interface CodeRunningSource {
  stream: string;
  scheme: string;
}

/**
 * The code-running sources (`exec:`, `echo:`, `expr:`) that `next` has and `current` does not
 * have in the same stream: added, or changed in any character. Sources the write leaves as they
 * are (a console user saving the whole file) are not counted.
 */
function addedCodeRunningSources(current: ConfigObject, next: ConfigObject, schemes: SchemeRegistry): CodeRunningSource[] {
  const before = readStreamsSection(current.streams);
  const added: CodeRunningSource[] = [];
  for (const [stream, sources] of readStreamsSection(next.streams)) {
    const kept = new Set(before.get(stream) ?? []);
    for (const source of sources) {
      const scheme = codeRunningScheme(source, schemes);
      if (scheme && !kept.has(source)) added.push({ stream, scheme });
    }
  }
  return added;
}

/**
 * The guard of every config write that comes through the API or the console: a config write is
 * as good as a shell on this machine if it may add `exec:`, so only the file edited on disk may.
 */
export function refuseCodeRunningSources(schemes: SchemeRegistry, configPath: string): WriteGuard {
  return (next, current) => {
    const [first, ...more] = addedCodeRunningSources(current, next, schemes);
    if (!first) return;
    const others = more.length > 0 ? ` (and ${more.map((s) => `streams.${s.stream}`).join(', ')})` : '';
    throw new SourceRejectedError(
      `streams.${first.stream}: ${first.scheme}: sources run commands on this machine and are accepted only from the config file edited on disk (${configPath})${others}`,
    );
  };
}
