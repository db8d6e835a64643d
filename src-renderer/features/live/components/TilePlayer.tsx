import type { ReactNode } from 'react';
import type { LiveTile } from '../model/relay-tiles';
import { Player } from '../player/Player';
import type { PlayerMode } from '../player/player-types';
import { TileActions } from './TileActions';
import { TileCaption } from './TileCaption';

export const snapshotUrl = (base: string | undefined, stream: string) =>
  base ? `${base}/api/frame.jpeg?src=${encodeURIComponent(stream)}` : undefined;

export interface TilePlayerProps {
  tile: LiveTile;
  /** The element that goes full screen. */
  element: HTMLElement | null;
  label: string;
  relay: string | undefined;
  base: string | undefined;
  /** The player runs only while this is true. */
  active: boolean;
  audible: boolean;
  forced: PlayerMode | undefined;
  /** Beside the name (a grid tile's drag handle). */
  leading?: ReactNode;
  /** Pop-out (a grid tile; a pop-out window has none). */
  onPopout?(): void;
  onToggleSound(): void;
  onForce(mode: PlayerMode | undefined): void;
}

/** A camera's player with its caption and actions: a grid tile's body, and a pop-out window's. */
export function TilePlayer({ tile, element, label, relay, base, active, audible, forced, leading, ...on }: TilePlayerProps) {
  const stream = tile.id;
  return (
    <Player
      stream={stream}
      label={label}
      base={base}
      active={active}
      videoCodecs={tile.videoCodecs}
      forced={forced}
      muted={!audible}
      caption={(state, stats) => (
        <TileCaption
          stream={tile.name}
          relay={relay}
          state={state}
          stats={stats}
          leading={leading}
          trailing={
            <TileActions
              stream={stream}
              label={label}
              snapshotUrl={snapshotUrl(base, stream)}
              audible={audible}
              forced={forced}
              onFullscreen={() => void element?.requestFullscreen()}
              {...(on.onPopout ? { onPopout: on.onPopout } : {})}
              onToggleSound={on.onToggleSound}
              onForce={on.onForce}
            />
          }
        />
      )}
    />
  );
}
