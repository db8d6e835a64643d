import { describe, expect, it } from 'vitest';
import type { StreamSummary } from '@shared/contract/relay';
import type { RelayInfo } from '@shared/contract/relays';
import { orderTiles } from './tile-order';
import { ALL_RELAYS, compareTiles, groupTiles, liveTiles, tileLabel, tileOfId, tileRelays } from './relay-tiles';

const stream = (name: string, video?: string): StreamSummary =>
  ({
    name,
    sources: [],
    producers: video
      ? [{ id: 1, url: 'rtsp://cam', state: 'running', medias: ['video'], codecs: [{ kind: 'video', name: video }], bytesReceived: 0 }]
      : [],
    consumers: [],
  }) as unknown as StreamSummary;

const relay = (name: string, state: RelayInfo['state'], reason?: string): RelayInfo => ({
  name,
  url: `http://${name}:1984`,
  hasLogin: false,
  origin: 'console',
  state,
  sinceMs: 1000,
  ...(reason ? { reason } : {}),
});

describe('liveTiles', () => {
  it('merges the local streams with each reachable relay’s, remote ones as relay:// sources', () => {
    const tiles = liveTiles(
      [stream('door', 'h264')],
      [{ relay: 'north', streams: [stream('yard', 'h265'), stream('gate')] }],
      [relay('north', 'reachable')],
      [],
    );
    expect(tiles).toEqual([
      { id: 'door', relay: 'local', name: 'door', videoCodecs: ['h264'] },
      { id: 'relay://north/yard', relay: 'north', name: 'yard', videoCodecs: ['h265'] },
      { id: 'relay://north/gate', relay: 'north', name: 'gate', videoCodecs: [] },
    ]);
  });

  it('marks an unreachable relay’s tiles, and keeps those only the saved layout names', () => {
    const north = relay('north', 'unreachable', 'connection refused');
    const tiles = liveTiles(
      [],
      [{ relay: 'north', streams: [stream('yard')] }],
      [north],
      ['relay://north/gate', 'relay://north/yard', 'relay://gone/x', 'door'],
    );
    expect(tiles.map((tile) => [tile.id, tile.unreachable])).toEqual([
      ['relay://north/yard', { name: 'north', reason: 'connection refused', sinceMs: 1000 }],
      ['relay://north/gate', { name: 'north', reason: 'connection refused', sinceMs: 1000 }],
    ]);
  });

  it('a remote tile playing leaves one tile: the embedded relay’s relay:// stream that pulls it is not a local tile', () => {
    const tiles = liveTiles(
      [stream('door'), stream('relay://north/yard', 'h264')],
      [{ relay: 'north', streams: [stream('yard', 'h264')] }],
      [relay('north', 'reachable')],
      [],
    );
    expect(tiles.map((tile) => [tile.id, tile.relay])).toEqual([
      ['door', 'local'],
      ['relay://north/yard', 'north'],
    ]);
  });

  it('keeps the same stream name apart on two relays', () => {
    const tiles = liveTiles([stream('yard')], [{ relay: 'south', streams: [stream('yard')] }], [relay('south', 'reachable')], []);
    expect(tiles.map(tileLabel)).toEqual(['yard', 'yard on south']);
  });
});

describe('order and groups', () => {
  it('places new tiles local first, then by relay and name', () => {
    const ids = ['relay://north/b', 'zeta', 'relay://east/a', 'alpha', 'relay://north/a'];
    expect(orderTiles(ids, ['relay://north/b'], compareTiles)).toEqual([
      'relay://north/b',
      'alpha',
      'zeta',
      'relay://east/a',
      'relay://north/a',
    ]);
  });

  it('reads relay and name back from an id', () => {
    expect(tileOfId('relay://north/front%20door')).toEqual({ id: 'relay://north/front%20door', relay: 'north', name: 'front door' });
    expect(tileOfId('door')).toEqual({ id: 'door', relay: 'local', name: 'door' });
  });

  const order = ['relay://north/yard', 'door', 'relay://south/dock', 'gate'];
  const relays = ['local', 'north', 'south'];
  it.each<[string, { filter: string; grouped: boolean }, Array<{ relay?: string; ids: string[] }>]>([
    ['everything in the user’s order', { filter: ALL_RELAYS, grouped: false }, [{ ids: order }]],
    ['one relay', { filter: 'north', grouped: false }, [{ ids: ['relay://north/yard'] }]],
    ['the local relay', { filter: 'local', grouped: false }, [{ ids: ['door', 'gate'] }]],
    [
      'grouped by relay, local first, each in the user’s order',
      { filter: ALL_RELAYS, grouped: true },
      [
        { relay: 'local', ids: ['door', 'gate'] },
        { relay: 'north', ids: ['relay://north/yard'] },
        { relay: 'south', ids: ['relay://south/dock'] },
      ],
    ],
    ['grouped and filtered', { filter: 'south', grouped: true }, [{ relay: 'south', ids: ['relay://south/dock'] }]],
    ['a filter that matches nothing', { filter: 'west', grouped: false }, []],
  ])('%s', (_case, options, groups) => {
    expect(groupTiles(order, { ...options, relays })).toEqual(groups);
  });

  it('offers the relays that have tiles, local first, in the listed order', () => {
    const tiles = liveTiles(
      [stream('door')],
      [{ relay: 'south', streams: [stream('dock')] }],
      [relay('north', 'reachable'), relay('south', 'reachable')],
      [],
    );
    expect(tileRelays(tiles, [relay('north', 'reachable'), relay('south', 'reachable')])).toEqual(['local', 'south']);
  });
});
