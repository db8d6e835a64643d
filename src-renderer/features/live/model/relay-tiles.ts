import type { StreamSummary } from '@shared/contract/relay';
import { LOCAL_RELAY, parseRemoteStreamSource, remoteStreamSource, type RelayInfo, type RelayStreams } from '@shared/contract/relays';

/** One tile of the grid: a stream of the embedded relay or of a remote one. */
export interface LiveTile {
  /**
   * What the player plays and the layout, forced modes and pop-outs remember: a local stream's
   * name, or `relay://<relay>/<stream>` (a source of the embedded relay that pulls the remote one).
   */
  id: string;
  /** `local` or the remote relay's name. */
  relay: string;
  /** The stream's name on its relay. */
  name: string;
  videoCodecs: string[];
  /** While its relay cannot be reached, the tile says so instead of trying to play. */
  unreachable?: Pick<RelayInfo, 'name' | 'reason' | 'sinceMs'>;
}

/** The video codecs a stream's producers send (h264, h265, jpeg, ...), for the player's mode decision. */
function streamVideoCodecs(stream: StreamSummary | undefined): string[] {
  return [...new Set((stream?.producers ?? []).flatMap((p) => p.codecs.filter((c) => c.kind === 'video').map((c) => c.name)))];
}

/** How a tile is named where its relay matters: "yard on north"; a local stream by its name alone. */
export const tileLabel = (tile: Pick<LiveTile, 'relay' | 'name'>): string =>
  tile.relay === LOCAL_RELAY ? tile.name : `${tile.name} on ${tile.relay}`;

/** The tile a `relay://` id or a local name stands for, before its relay has said anything of it. */
export function tileOfId(id: string): Pick<LiveTile, 'id' | 'relay' | 'name'> {
  const remote = parseRemoteStreamSource(id);
  return remote ? { id, relay: remote.relay, name: remote.name } : { id, relay: LOCAL_RELAY, name: id };
}

/**
 * Every tile: the local streams, each reachable relay's streams, and the last known streams of a
 * relay that is unreachable (also those only the saved layout still names, as after a reload
 * while the relay is away), marked so.
 */
export function liveTiles(
  local: readonly StreamSummary[],
  remote: readonly RelayStreams[],
  relays: readonly RelayInfo[],
  saved: readonly string[],
): LiveTile[] {
  const byName = new Map(relays.map((relay) => [relay.name, relay]));
  const unreachable = (name: string) => {
    const relay = byName.get(name);
    return relay?.state === 'unreachable' ? { unreachable: { name: relay.name, reason: relay.reason, sinceMs: relay.sinceMs } } : {};
  };
  // A local stream named `relay://…` is the embedded relay pulling a remote tile's stream (a
  // source used as a name, as go2rtc lists it): that tile is the remote one, not a second.
  const tiles: LiveTile[] = local
    .filter((stream) => !parseRemoteStreamSource(stream.name))
    .map((stream) => ({
      id: stream.name,
      relay: LOCAL_RELAY,
      name: stream.name,
      videoCodecs: streamVideoCodecs(stream),
    }));
  const seen = new Set(tiles.map((tile) => tile.id));
  const add = (tile: LiveTile) => {
    if (seen.has(tile.id)) return;
    seen.add(tile.id);
    tiles.push(tile);
  };
  for (const entry of remote) {
    for (const stream of entry.streams) {
      const id = remoteStreamSource(entry.relay, stream.name);
      add({ id, relay: entry.relay, name: stream.name, videoCodecs: streamVideoCodecs(stream), ...unreachable(entry.relay) });
    }
  }
  for (const id of saved) {
    const tile = tileOfId(id);
    if (tile.relay !== LOCAL_RELAY && byName.get(tile.relay)?.state === 'unreachable')
      add({ ...tile, videoCodecs: [], ...unreachable(tile.relay) });
  }
  return tiles;
}

/** New tiles' place after those the user arranged: local streams first, then each relay's, by name. */
export function compareTiles(a: string, b: string): number {
  const left = tileOfId(a);
  const right = tileOfId(b);
  const rank = (relay: string) => (relay === LOCAL_RELAY ? '' : relay);
  return rank(left.relay).localeCompare(rank(right.relay)) || left.name.localeCompare(right.name);
}

/** `all`, or one relay's name: which tiles the grid shows. */
export type RelayFilter = string;
export const ALL_RELAYS: RelayFilter = 'all';

/** The relays that have tiles, local first, then in the order they are listed: the filter's choices. */
export function tileRelays(tiles: readonly LiveTile[], relays: readonly RelayInfo[]): string[] {
  const present = new Set(tiles.map((tile) => tile.relay));
  return [LOCAL_RELAY, ...relays.map((relay) => relay.name)].filter((name) => present.has(name));
}

/**
 * The tiles shown, in the user's order, as groups: one group of everything, or one per relay
 * (local first) when grouped; a filter keeps one relay's tiles. Groups that would be empty are left out.
 */
export function groupTiles(
  order: readonly string[],
  options: { filter: RelayFilter; grouped: boolean; relays: readonly string[] },
): Array<{ relay?: string; ids: string[] }> {
  const relayOf = (id: string) => tileOfId(id).relay;
  const shown = options.filter === ALL_RELAYS ? [...order] : order.filter((id) => relayOf(id) === options.filter);
  if (!options.grouped) return shown.length > 0 ? [{ ids: shown }] : [];
  const names = [...options.relays, ...shown.map(relayOf).filter((relay) => !options.relays.includes(relay))];
  return [...new Set(names)]
    .map((relay) => ({ relay, ids: shown.filter((id) => relayOf(id) === relay) }))
    .filter((group) => group.ids.length > 0);
}
