import { capability } from '../engine/engine-context';
import type { StreamRegistry } from './core/stream-registry';
import type { TaskRegistry } from './core/task-registry';

/**
 * What the relay lends the engine's other modules (recordings): its streams, to attach
 * consumers to, and its task list (`GET /api/stack`), where they show.
 */
export interface RelayStreams {
  streams: StreamRegistry;
  tasks: TaskRegistry;
}

export const relayStreams = capability<RelayStreams>('relay.streams');
