import type { ReactNode } from 'react';
import type { LiveTile } from '../model/relay-tiles';
import type { PlayerMode } from '../player/player-types';
import { useVisible } from '../use-visible';
import { TilePlayer } from './TilePlayer';

export interface TileBodyProps {
  tile: LiveTile;
  /** The tile's element: the player runs while it is on screen. */
  element: HTMLElement | null;
  label: string;
  relay: string | undefined;
  base: string | undefined;
  audible: boolean;
  forced: PlayerMode | undefined;
  /** The drag handle, beside the name. */
  handle: ReactNode;
  onPopout(stream: string): void;
  onToggleSound(stream: string): void;
  onForce(stream: string, mode: PlayerMode | undefined): void;
}

/** The player and the caption with its actions of a tile on or near the screen. */
export function TileBody({ tile, element, handle, ...props }: TileBodyProps) {
  const stream = tile.id;
  const visible = useVisible(element);
  return (
    <TilePlayer
      tile={tile}
      element={element}
      label={props.label}
      relay={props.relay}
      base={props.base}
      active={visible}
      audible={props.audible}
      forced={props.forced}
      leading={handle}
      onPopout={() => props.onPopout(stream)}
      onToggleSound={() => props.onToggleSound(stream)}
      onForce={(mode) => props.onForce(stream, mode)}
    />
  );
}
