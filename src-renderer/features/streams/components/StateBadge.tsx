import { Badge } from '@mantine/core';
import type { StreamState } from '../model/stream-rows';

type ProducerState = 'idle' | 'dialing' | 'running' | 'waiting' | 'closed';

const COLOR: Record<StreamState | ProducerState, string> = {
  live: 'green',
  running: 'green',
  connecting: 'yellow',
  dialing: 'yellow',
  waiting: 'orange',
  error: 'red',
  'on demand': 'gray',
  idle: 'gray',
  closed: 'gray',
  'no source': 'gray',
};

/** A stream's or producer's state as a coloured word (the reason of an error is shown beside it, in text). */
export function StateBadge({ state }: { state: StreamState | ProducerState }) {
  return (
    <Badge color={COLOR[state]} variant="dot" data-state={state}>
      {state}
    </Badge>
  );
}
