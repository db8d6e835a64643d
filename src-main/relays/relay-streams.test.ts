import { describe, expect, it } from 'vitest';
import type { StreamSummary } from '@shared/contract/relay';
import { mergeRelayStreams, streamsFingerprint } from './relay-streams';

const stream = (name: string, bytes = 0): StreamSummary => ({
  name,
  sources: [`rtsp://***@10.0.0.9/${name}`],
  producers: [{ url: `rtsp://***@10.0.0.9/${name}`, state: 'running', medias: [], codecs: [], bytesReceived: bytes }],
  consumers: [],
});

describe('merging the relays stream lists', () => {
  it('lists reachable relays in the config order and leaves out the others', () => {
    const merged = mergeRelayStreams([
      { name: 'south', state: 'reachable', streams: [stream('gate')] },
      { name: 'east', state: 'unreachable', streams: [stream('old')] },
      { name: 'north', state: 'reachable', streams: [stream('yard'), stream('door')] },
      { name: 'west', state: 'checking' },
      { name: 'empty', state: 'reachable', streams: [] },
    ]);
    expect(merged.map((r) => [r.relay, r.streams.map((s) => s.name)])).toEqual([
      ['south', ['gate']],
      ['north', ['yard', 'door']],
      ['empty', []],
    ]);
  });

  it('changes its fingerprint when a stream, a relay or a byte count changes, and only then', () => {
    const base = mergeRelayStreams([{ name: 'north', state: 'reachable', streams: [stream('yard', 10)] }]);
    const same = mergeRelayStreams([{ name: 'north', state: 'reachable', streams: [stream('yard', 10)] }]);
    expect(streamsFingerprint(same)).toBe(streamsFingerprint(base));
    for (const other of [
      [{ name: 'north', state: 'reachable' as const, streams: [stream('yard', 11)] }],
      [{ name: 'north', state: 'reachable' as const, streams: [stream('yard', 10), stream('gate')] }],
      [{ name: 'north', state: 'unreachable' as const, streams: [stream('yard', 10)] }],
    ]) {
      expect(streamsFingerprint(mergeRelayStreams(other))).not.toBe(streamsFingerprint(base));
    }
  });
});
