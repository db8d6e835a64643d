import { ActionIcon } from '@mantine/core';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { IconGripVertical } from '@tabler/icons-react';
import { memo, useCallback, useRef, useState } from 'react';
import { tileLabel, type LiveTile } from '../model/relay-tiles';
import type { PlayerMode } from '../player/player-types';
import { useNearView } from '../use-visible';
import { RelayAwayTile } from './RelayAwayTile';
import { TileBody } from './TileBody';
import { TileShell } from './TileShell';

export interface TileProps {
  tile: LiveTile;
  /** The tile's place among every tile shown (the selection counts across groups). */
  index: number;
  /** Whether the caption names the tile's relay (once remote relays exist). */
  showRelay: boolean;
  base: string | undefined;
  selected: boolean;
  audible: boolean;
  forced: PlayerMode | undefined;
  // The callbacks are the grid's, one for every tile (so a tile re-renders only when its own
  // props change): each names the tile it is for.
  onSelect(index: number): void;
  onPopout(stream: string): void;
  onToggleSound(stream: string): void;
  onForce(stream: string, mode: PlayerMode | undefined): void;
  /** The tile's element, for fullscreen from the keyboard. */
  elementRef(stream: string, element: HTMLElement | null): void;
}

/**
 * One camera in the grid: its player, caption and actions, draggable by its handle. A remote
 * relay's stream plays through the embedded relay (its id is the `relay://` source); while that
 * relay is unreachable the tile says so instead of dialing, and plays again once it is back.
 * Memoized: a push of the streams that leaves this tile's props as they were does not reach it.
 */
export const Tile = memo(function Tile(props: TileProps) {
  const { tile, index, selected, onSelect } = props;
  const stream = tile.id;
  const label = tileLabel(tile);
  const relay = props.showRelay ? tile.relay : undefined;
  const sortable = useSortable({ id: stream });
  const [element, setElement] = useState<HTMLElement | null>(null);
  const near = useNearView(element);
  const elementRef = useRef(props.elementRef);
  elementRef.current = props.elementRef;
  const { setNodeRef } = sortable;
  // Stable, so React does not detach and reattach the node on every render (dnd-kit measures it).
  const setRefs = useCallback(
    (node: HTMLElement | null) => {
      setNodeRef(node);
      setElement(node);
      elementRef.current(stream, node);
    },
    [setNodeRef, stream],
  );
  const select = useCallback(() => onSelect(index), [onSelect, index]);

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
      onFocusCapture={select}
      onPointerDown={select}
      style={{
        transform: CSS.Transform.toString(sortable.transform),
        transition: sortable.transition,
        zIndex: sortable.isDragging ? 2 : undefined,
      }}
    >
      {tile.unreachable ? (
        <RelayAwayTile tile={tile} away={tile.unreachable} relay={relay} leading={handle} />
      ) : near ? (
        <TileBody
          tile={tile}
          element={element}
          label={label}
          relay={relay}
          base={props.base}
          audible={props.audible}
          forced={props.forced}
          handle={handle}
          onPopout={props.onPopout}
          onToggleSound={props.onToggleSound}
          onForce={props.onForce}
        />
      ) : (
        <TileShell tile={tile} relay={relay} leading={handle} />
      )}
    </article>
  );
});
