import { describe, expect, it } from 'vitest';
import type { LiveTile } from './relay-tiles';
import { liveTiles } from './relay-tiles';
import { shareList, shareTiles } from './share-tiles';
import type { StreamSummary } from '@shared/contract/relay';
import type { RelayInfo } from '@shared/contract/relays';

const tile = (name: string, extra: Partial<LiveTile> = {}): LiveTile => ({
  id: `relay://north/${name}`,
  relay: 'north',
  name,
  videoCodecs: ['h264'],
  ...extra,
});

/** A stream as a relay lists it, its bytes moving as they do between two pushes. */
const stream = (name: string, bytes: number): StreamSummary =>
  ({
    name,
    sources: [],
    producers: [
      { id: 1, url: 'rtsp://cam', state: 'running', medias: ['video'], codecs: [{ kind: 'video', name: 'h264' }], bytesReceived: bytes },
    ],
    consumers: [],
  }) as unknown as StreamSummary;

const north = (state: RelayInfo['state'], reason?: string): RelayInfo => ({
  name: 'north',
  url: 'http://north:1984',
  hasLogin: false,
  origin: 'config',
  state,
  sinceMs: 1000,
  ...(reason ? { reason } : {}),
});

describe('shareTiles', () => {
  it('gives back the previous list itself when a push changed nothing a tile shows (only byte counts moved)', () => {
    const first = liveTiles([], [{ relay: 'north', streams: [stream('yard', 1), stream('gate', 1)] }], [north('reachable')], []);
    const pushed = liveTiles([], [{ relay: 'north', streams: [stream('yard', 900), stream('gate', 700)] }], [north('reachable')], []);
    expect(pushed[0]).not.toBe(first[0]);
    expect(shareTiles(first, pushed)).toBe(first);
  });

  it('keeps the identity of every tile that did not change, and takes the changed ones', () => {
    const yard = tile('yard');
    const gate = tile('gate');
    const next = shareTiles([yard, gate], [tile('yard'), tile('gate', { videoCodecs: ['h265'] })]);
    expect(next[0]).toBe(yard);
    expect(next[1]).not.toBe(gate);
    expect(next[1]!.videoCodecs).toEqual(['h265']);
  });

  it('sees a relay going away or coming back as a change of its tiles', () => {
    const reachable = shareTiles([], [tile('yard')]);
    const away = shareTiles(reachable, [tile('yard', { unreachable: { name: 'north', reason: 'connection refused', sinceMs: 5 } })]);
    expect(away).not.toBe(reachable);
    expect(away[0]!.unreachable?.reason).toBe('connection refused');
    // Still away for the same reason since the same moment: the same tile.
    expect(shareTiles(away, [tile('yard', { unreachable: { name: 'north', reason: 'connection refused', sinceMs: 5 } })])).toBe(away);
    expect(shareTiles(away, [tile('yard')])[0]!.unreachable).toBeUndefined();
  });

  it('makes a new list when tiles came, went or moved, still keeping each unchanged tile', () => {
    const [yard, gate] = [tile('yard'), tile('gate')];
    const moved = shareTiles([yard, gate], [tile('gate'), tile('yard')]);
    expect(moved).toEqual([gate, yard]);
    expect(moved[0]).toBe(gate);
    const added = shareTiles([yard], [tile('yard'), tile('door')]);
    expect(added).toHaveLength(2);
    expect(added[0]).toBe(yard);
    expect(shareTiles([yard, gate], [tile('yard')])).toEqual([yard]);
  });
});

describe('shareList', () => {
  it('keeps the previous list while it holds the same names in the same order', () => {
    const before = ['local', 'north'];
    expect(shareList(before, ['local', 'north'])).toBe(before);
    const after = ['local', 'north', 'south'];
    expect(shareList(before, after)).toBe(after);
    const reordered = ['north', 'local'];
    expect(shareList(before, reordered)).toBe(reordered);
  });
});
