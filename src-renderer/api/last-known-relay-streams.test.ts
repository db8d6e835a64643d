import { describe, expect, it } from 'vitest';
import type { StreamSummary } from '@shared/contract/relay';
import type { RelayInfo, RelayStreams } from '@shared/contract/relays';
import { keepLastKnown } from './last-known-relay-streams';

const stream = (name: string) => ({ name, sources: [], producers: [], consumers: [] }) as StreamSummary;
const relay = (name: string, state: RelayInfo['state']): RelayInfo => ({
  name,
  url: `http://${name}:1984`,
  hasLogin: false,
  origin: 'console',
  state,
  sinceMs: 1000,
});

describe('keepLastKnown', () => {
  const before: RelayStreams[] = [
    { relay: 'north', streams: [stream('yard')] },
    { relay: 'south', streams: [stream('dock')] },
    { relay: 'east', streams: [stream('lane')] },
  ];
  it('keeps the streams of a configured relay that dropped out of the list; a removed one’s go', () => {
    const next: RelayStreams[] = [{ relay: 'south', streams: [stream('dock'), stream('pier')] }];
    const kept = keepLastKnown(before, next, [relay('north', 'unreachable'), relay('south', 'reachable')]);
    expect(kept.map((entry) => [entry.relay, entry.streams.map((s) => s.name)])).toEqual([
      ['south', ['dock', 'pier']],
      ['north', ['yard']],
    ]);
    // `onStreams` may come before `onRelays` says north went away.
    const early = keepLastKnown(before, next, [relay('north', 'reachable'), relay('south', 'reachable')]);
    expect(early.map((entry) => entry.relay)).toEqual(['south', 'north']);
  });
});
