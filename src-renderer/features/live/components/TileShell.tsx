import type { ReactNode } from 'react';
import type { LiveTile } from '../model/relay-tiles';
import { TileCaption } from './TileCaption';

const IDLE = { status: 'idle' } as const;

/**
 * A tile far from the screen: its frame and name in the size of a playing tile, without a player
 * or controls (those mount as it comes near), so hundreds of them cost little to lay out.
 */
export function TileShell({ tile, relay, leading }: { tile: LiveTile; relay?: string; leading?: ReactNode }) {
  return (
    <div className="player">
      <div className="player-stage">
        <div className="player-media" aria-hidden="true" />
        <div className="player-overlay" role="status">
          Paused while not visible
        </div>
      </div>
      <TileCaption stream={tile.name} relay={relay} state={IDLE} stats={{}} leading={leading} />
    </div>
  );
}
