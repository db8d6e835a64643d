import type { ReactNode } from 'react';
import type { LiveTile } from '../model/relay-tiles';
import { Player } from '../player/Player';
import type { PlayerMode } from '../player/player-types';
import { useVisible } from '../use-visible';
import { TileActions } from './TileActions';
import { TileCaption } from './TileCaption';

export const snapshotUrl = (base: string | undefined, stream: string) =>
  base ? `${base}/api/frame.jpeg?src=${encodeURIComponent(stream)}` : undefined;

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
export function TileBody({ tile, element, label, relay, base, audible, forced, handle, ...on }: TileBodyProps) {
  const stream = tile.id;
  const visible = useVisible(element);
  return (
    <Player
      stream={stream}
      label={label}
      base={base}
      active={visible}
      videoCodecs={tile.videoCodecs}
      forced={forced}
      muted={!audible}
      caption={(state, stats) => (
        <TileCaption
          stream={tile.name}
          relay={relay}
          state={state}
          stats={stats}
          leading={handle}
          trailing={
            <TileActions
              stream={stream}
              label={label}
              snapshotUrl={snapshotUrl(base, stream)}
              audible={audible}
              forced={forced}
              onFullscreen={() => void element?.requestFullscreen()}
              onPopout={() => on.onPopout(stream)}
              onToggleSound={() => on.onToggleSound(stream)}
              onForce={(mode) => on.onForce(stream, mode)}
            />
          }
        />
      )}
    />
  );
}
