import type { ReactNode } from 'react';
import { unreachableSentence } from '@renderer/features/relays/model/relay-state-text';
import type { LiveTile } from '../model/relay-tiles';
import { TileCaption } from './TileCaption';

const IDLE = { status: 'idle' } as const;

/**
 * The inside of a tile whose relay cannot be reached: which relay, why and since when, where the
 * picture would be, and nothing dialed until the relay is back.
 */
export function RelayAwayTile({
  tile,
  away,
  relay,
  leading,
}: {
  tile: LiveTile;
  away: NonNullable<LiveTile['unreachable']>;
  /** The relay's name in the caption (once remote relays exist). */
  relay?: string;
  leading?: ReactNode;
}) {
  return (
    <div className="player">
      <div className="player-stage">
        <div className="player-media" aria-hidden="true" />
        <div className="player-overlay" role="status">
          {unreachableSentence(away)}
        </div>
      </div>
      <TileCaption
        stream={tile.name}
        relay={relay}
        state={IDLE}
        stats={{}}
        status={{ label: 'relay unreachable', color: 'red' }}
        leading={leading}
      />
    </div>
  );
}
