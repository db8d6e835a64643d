import { describe, expect, it } from 'vitest';
import type { StreamSummary } from '@shared/contract/relay';
import { keepStreams, mergeRelayStreams, streamsFingerprint, type KeptStreams } from './relay-streams';

const stream = (name: string, bytes = 0): StreamSummary => ({
  name,
  sources: [`rtsp://***@10.0.0.9/${name}`],
  producers: [{ url: `rtsp://***@10.0.0.9/${name}`, state: 'running', medias: [], codecs: [], bytesReceived: bytes }],
  consumers: [],
});

/** A counter as the monitor keeps one. */
const versions = () => {
  let last = 0;
  return () => ++last;
};

const kept = (streams: StreamSummary[], version = 1): KeptStreams => ({ streams, key: JSON.stringify(streams), version });

describe('merging the relays stream lists', () => {
  it('lists reachable relays in the config order and leaves out the others', () => {
    const merged = mergeRelayStreams([
      { name: 'south', state: 'reachable', kept: kept([stream('gate')]) },
      { name: 'east', state: 'unreachable', kept: kept([stream('old')]) },
      { name: 'north', state: 'reachable', kept: kept([stream('yard'), stream('door')]) },
      { name: 'west', state: 'checking' },
      { name: 'empty', state: 'reachable', kept: kept([]) },
    ]);
    expect(merged.map((r) => [r.relay, r.streams.map((s) => s.name)])).toEqual([
      ['south', ['gate']],
      ['north', ['yard', 'door']],
      ['empty', []],
    ]);
  });

  it('keeps the last list while a relay answers the same, and takes a new version for any change', () => {
    const next = versions();
    const first = keepStreams(undefined, [stream('yard', 10)], next);
    const again = keepStreams(first, [stream('yard', 10)], next);
    expect(again).toBe(first);
    const moved = keepStreams(first, [stream('yard', 11)], next);
    expect(moved.streams.map((s) => s.producers[0]!.bytesReceived)).toEqual([11]);
    expect(moved.version).not.toBe(first.version);
    const added = keepStreams(moved, [stream('yard', 11), stream('gate')], next);
    expect(new Set([first.version, moved.version, added.version]).size).toBe(3);
  });

  it('changes its fingerprint when a relay’s list, its state or the relays listed change, and only then', () => {
    const yard = kept([stream('yard', 10)], 1);
    const base = streamsFingerprint([{ name: 'north', state: 'reachable', kept: yard }]);
    // The same version of the list is the same list: nothing is compared stream by stream.
    expect(streamsFingerprint([{ name: 'north', state: 'reachable', kept: { ...yard } }])).toBe(base);
    // A relay not yet checked is not listed, so it changes nothing.
    expect(
      streamsFingerprint([
        { name: 'north', state: 'reachable', kept: yard },
        { name: 'west', state: 'checking' },
      ]),
    ).toBe(base);
    for (const other of [
      [{ name: 'north', state: 'reachable' as const, kept: kept([stream('yard', 11)], 2) }],
      [{ name: 'north', state: 'unreachable' as const, kept: yard }],
      [{ name: 'south', state: 'reachable' as const, kept: yard }],
      [
        { name: 'north', state: 'reachable' as const, kept: yard },
        { name: 'south', state: 'reachable' as const, kept: kept([], 3) },
      ],
    ]) {
      expect(streamsFingerprint(other)).not.toBe(base);
    }
  });
});
