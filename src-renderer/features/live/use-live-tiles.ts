import { useMemo } from 'react';
import { useRelayStreams, useRelays } from '@renderer/api/use-relays';
import { useStreams } from '@renderer/api/use-streams';
import { compareTiles, liveTiles, tileRelays } from './model/relay-tiles';
import { orderTiles } from './model/tile-order';

/**
 * Every tile of the grid, local and remote, in the user's order. The remote relays are read
 * beside the local streams and never hold them up: where they cannot be read, the local tiles
 * show alone (with the reason above them).
 */
export function useLiveTiles(savedOrder: readonly string[] | undefined) {
  const streams = useStreams();
  const relays = useRelays();
  const relayStreams = useRelayStreams();
  const saved = useMemo(() => savedOrder ?? [], [savedOrder]);
  const tiles = useMemo(
    () => liveTiles(streams.data ?? [], relayStreams.data ?? [], relays.data ?? [], saved),
    [streams.data, relayStreams.data, relays.data, saved],
  );
  const byId = useMemo(() => new Map(tiles.map((tile) => [tile.id, tile])), [tiles]);
  const order = useMemo(
    () =>
      orderTiles(
        tiles.map((tile) => tile.id),
        saved,
        compareTiles,
      ),
    [tiles, saved],
  );
  const relayNames = useMemo(() => tileRelays(tiles, relays.data ?? []), [tiles, relays.data]);
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
