import { useMemo, useRef } from 'react';
import { useRelayStreams, useRelays } from '@renderer/api/use-relays';
import { useStreams } from '@renderer/api/use-streams';
import { compareTiles, liveTiles, tileRelays, type LiveTile } from './model/relay-tiles';
import { shareList, shareTiles } from './model/share-tiles';
import { orderTiles } from './model/tile-order';

/**
 * Every tile of the grid, local and remote, in the user's order. The remote relays are read
 * beside the local streams and never hold them up: where they cannot be read, the local tiles
 * show alone (with the reason above them).
 *
 * The streams are pushed again whenever a byte count moves (every second, and on each poll of a
 * remote relay): the tiles, their order and the relays' names keep their identity while what
 * they show is the same, so such a push re-renders no tile.
 */
export function useLiveTiles(savedOrder: readonly string[] | undefined) {
  const streams = useStreams();
  const relays = useRelays();
  const relayStreams = useRelayStreams();
  const kept = useRef<{ tiles: readonly LiveTile[]; order: string[]; relayNames: string[] }>({ tiles: [], order: [], relayNames: [] });
  const saved = useMemo(() => savedOrder ?? [], [savedOrder]);
  const tiles = useMemo(
    () =>
      (kept.current.tiles = shareTiles(
        kept.current.tiles,
        liveTiles(streams.data ?? [], relayStreams.data ?? [], relays.data ?? [], saved),
      )),
    [streams.data, relayStreams.data, relays.data, saved],
  );
  const byId = useMemo(() => new Map(tiles.map((tile) => [tile.id, tile])), [tiles]);
  const order = useMemo(
    () =>
      (kept.current.order = shareList(
        kept.current.order,
        orderTiles(
          tiles.map((tile) => tile.id),
          saved,
          compareTiles,
        ),
      )),
    [tiles, saved],
  );
  const relayNames = useMemo(
    () => (kept.current.relayNames = shareList(kept.current.relayNames, tileRelays(tiles, relays.data ?? []))),
    [tiles, relays.data],
  );
  return {
    streams,
    byId,
    order,
    relayNames,
    /** Remote relays exist: tiles name their relay and the relay filter is offered. */
    hasRemote: (relays.data?.length ?? 0) > 0,
    relaysError: relays.error ?? relayStreams.error,
  };
}
