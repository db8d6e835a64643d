import type { PlayerMode } from '../player/player-types';

/** The forced modes with `stream`'s set to `mode`, or taken out (automatic) when `mode` is undefined. */
export function withTileMode(
  modes: Readonly<Record<string, PlayerMode>>,
  stream: string,
  mode: PlayerMode | undefined,
): Record<string, PlayerMode> {
  const next = { ...modes };
  if (mode) next[stream] = mode;
  else delete next[stream];
  return next;
}
