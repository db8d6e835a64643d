import type { LiveTile } from './relay-tiles';

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((item, i) => item === b[i]);

const sameAway = (a: LiveTile['unreachable'], b: LiveTile['unreachable']) =>
  a === b || (a !== undefined && b !== undefined && a.name === b.name && a.reason === b.reason && a.sinceMs === b.sinceMs);

/** Whether two tiles show the same: same stream, relay, codecs and relay state. */
const sameTile = (a: LiveTile, b: LiveTile): boolean =>
  a.id === b.id &&
  a.relay === b.relay &&
  a.name === b.name &&
  sameList(a.videoCodecs, b.videoCodecs) &&
  sameAway(a.unreachable, b.unreachable);

/**
 * `next`, with each tile that equals the previous list's tile of its id replaced by that one, and
 * the previous list itself where no tile changed, moved, came or went. The lists are rebuilt on
 * every push of the streams (their byte counts move every second): shared this way, a push that
 * changes nothing the grid shows re-renders no tile and never restarts a player.
 */
export function shareTiles(previous: readonly LiveTile[], next: readonly LiveTile[]): readonly LiveTile[] {
  const before = new Map(previous.map((tile) => [tile.id, tile]));
  let changed = previous.length !== next.length;
  const shared = next.map((tile, i) => {
    const old = before.get(tile.id);
    const kept = old && sameTile(old, tile) ? old : tile;
    if (kept !== previous[i]) changed = true;
    return kept;
  });
  return changed ? shared : previous;
}

/** `next`, or `previous` where both hold the same names in the same order: a list that keeps its identity while equal. */
export const shareList = <T extends readonly string[]>(previous: T, next: T): T => (sameList(previous, next) ? previous : next);
