import { ActionIcon } from '@mantine/core';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { IconGripVertical } from '@tabler/icons-react';
import { useCallback, useRef, useState } from 'react';
import { tileLabel, type LiveTile } from '../model/relay-tiles';
import { Player } from '../player/Player';
import type { PlayerMode } from '../player/player-types';
import { useVisible } from '../use-visible';
import { RelayAwayTile } from './RelayAwayTile';
import { TileActions } from './TileActions';
import { TileCaption } from './TileCaption';

export interface TileProps {
  tile: LiveTile;
  /** Whether the caption names the tile's relay (once remote relays exist). */
  showRelay: boolean;
  base: string | undefined;
  selected: boolean;
  audible: boolean;
  forced: PlayerMode | undefined;
  onSelect(): void;
  onPopout(): void;
  onToggleSound(): void;
  onForce(mode: PlayerMode | undefined): void;
  /** The tile's element, for fullscreen from the keyboard. */
  elementRef(element: HTMLElement | null): void;
}

export const snapshotUrl = (base: string | undefined, stream: string) =>
  base ? `${base}/api/frame.jpeg?src=${encodeURIComponent(stream)}` : undefined;

/**
 * One camera in the grid: its player, caption and actions, draggable by its handle. A remote
 * relay's stream plays through the embedded relay (its id is the `relay://` source); while that
 * relay is unreachable the tile says so instead of dialing, and plays again once it is back.
 */
export function Tile(props: TileProps) {
  const { tile, base, selected } = props;
  const stream = tile.id;
  const label = tileLabel(tile);
  const relay = props.showRelay ? tile.relay : undefined;
  const sortable = useSortable({ id: stream });
  const [element, setElement] = useState<HTMLElement | null>(null);
  const visible = useVisible(element);
  const elementRef = useRef(props.elementRef);
  elementRef.current = props.elementRef;
  const { setNodeRef } = sortable;
  // Stable, so React does not detach and reattach the node on every render (dnd-kit measures it).
  const setRefs = useCallback(
    (node: HTMLElement | null) => {
      setNodeRef(node);
      setElement(node);
      elementRef.current(node);
    },
    [setNodeRef],
  );

  const handle = (
    // No tooltip here: its pointer handlers would compete with the drag's.
    <ActionIcon
      variant="subtle"
      className="tile-handle"
      aria-label={`Move ${label}`}
      title="Drag to reorder (or Space, arrow keys, Space)"
      {...sortable.attributes}
      {...sortable.listeners}
    >
      <IconGripVertical size={18} />
    </ActionIcon>
  );

  return (
    <article
      ref={setRefs}
      className="tile"
      data-selected={selected || undefined}
      aria-label={`Camera ${label}`}
      tabIndex={0}
      onFocusCapture={props.onSelect}
      onPointerDown={props.onSelect}
      style={{
        transform: CSS.Transform.toString(sortable.transform),
        transition: sortable.transition,
        zIndex: sortable.isDragging ? 2 : undefined,
      }}
    >
      {tile.unreachable ? (
        <RelayAwayTile tile={tile} away={tile.unreachable} relay={relay} leading={handle} />
      ) : (
        <Player
          stream={stream}
          label={label}
          base={base}
          active={visible}
          videoCodecs={tile.videoCodecs}
          forced={props.forced}
          muted={!props.audible}
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
                  audible={props.audible}
                  forced={props.forced}
                  onFullscreen={() => void element?.requestFullscreen()}
                  onPopout={props.onPopout}
                  onToggleSound={props.onToggleSound}
                  onForce={props.onForce}
                />
              }
            />
          )}
        />
      )}
    </article>
  );
}
