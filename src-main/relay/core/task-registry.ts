/**
 * The relay's live tasks (streams, producers, consumers, sockets, timers, child processes), for
 * GET /api/stack: what is running right now, and why.
 */
import { redactSource } from './redact-source';

type TaskKind = 'stream' | 'producer' | 'consumer' | 'socket' | 'server' | 'timer' | 'child';

export interface TaskRegistry {
  add(kind: TaskKind, description: string): () => void;
  dump(): string;
  count(kind?: TaskKind): number;
}

export function createTaskRegistry(): TaskRegistry {
  const tasks = new Map<number, { kind: TaskKind; description: string; since: number }>();
  let next = 1;
  return {
    add(kind, description) {
      const id = next++;
      tasks.set(id, { kind, description, since: Date.now() });
      return () => void tasks.delete(id);
    },
    count: (kind) => (kind ? [...tasks.values()].filter((t) => t.kind === kind).length : tasks.size),
    dump() {
      const now = Date.now();
      const lines = [...tasks.entries()]
        .sort(([a], [b]) => a - b)
        // Temporary streams and their consumers are named by source URLs, passwords included.
        .map(([id, t]) => `${t.kind} #${id} [${Math.round((now - t.since) / 1000)}s]: ${redactSource(t.description)}`);
      return [...lines, `Total: ${tasks.size}, Skipped: 0`].join('\n') + '\n';
    },
  };
}
