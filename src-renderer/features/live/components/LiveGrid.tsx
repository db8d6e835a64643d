import { DndContext, KeyboardSensor, PointerSensor, closestCenter, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, rectSortingStrategy, sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import { memo, useMemo } from 'react';
import type { LiveLayout } from '@shared/contract/preferences';
import { gridColumns } from '../model/grid-layout';
import type { LiveTile } from '../model/relay-tiles';
import type { PlayerMode } from '../player/player-types';
import { Tile } from './Tile';

export interface LiveGridProps {
  /** The ids of this grid's tiles, in the user's order. */
  ids: string[];
  /** Every tile by its id. */
  byId: ReadonlyMap<string, LiveTile>;
  /** The list's name: "Cameras", or "Cameras on north" where the grid is one relay's group. */
  label: string;
  /** The index of this grid's first tile among every tile shown (the selection counts across groups). */
  offset: number;
  showRelay: boolean;
  layout: LiveLayout;
  base: string | undefined;
  selected: number;
  audible: Record<string, boolean>;
  forced: Record<string, PlayerMode | undefined>;
  onSelect(index: number): void;
  onMove(from: string, to: string): void;
  onPopout(stream: string): void;
  onToggleSound(stream: string): void;
  onForce(stream: string, mode: PlayerMode | undefined): void;
  tileRef(stream: string, element: HTMLElement | null): void;
}

/**
 * The tiles in the chosen layout; drag a tile's handle (or use the keyboard) to reorder.
 * Memoized, as each tile is: the grid renders again when its tiles, layout, selection, sound or
 * modes change, and then only the tiles whose own props changed.
 */
export const LiveGrid = memo(function LiveGrid(props: LiveGridProps) {
  const { ids, byId, onMove } = props;
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const tiles = useMemo(() => ids.map((id) => byId.get(id)).filter((tile): tile is LiveTile => tile !== undefined), [ids, byId]);
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) onMove(String(active.id), String(over.id));
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      {/* The ids, not an array made here: a new array would re-render every sortable tile. */}
      <SortableContext items={ids} strategy={rectSortingStrategy}>
        <div className="live-grid" style={{ gridTemplateColumns: gridColumns(props.layout) }} role="list" aria-label={props.label}>
          {tiles.map((tile, at) => {
            const index = props.offset + at;
            return (
              <div role="listitem" key={tile.id}>
                <Tile
                  tile={tile}
                  index={index}
                  showRelay={props.showRelay}
                  base={props.base}
                  selected={props.selected === index}
                  audible={!!props.audible[tile.id]}
                  forced={props.forced[tile.id]}
                  onSelect={props.onSelect}
                  onPopout={props.onPopout}
                  onToggleSound={props.onToggleSound}
                  onForce={props.onForce}
                  elementRef={props.tileRef}
                />
              </div>
            );
          })}
        </div>
      </SortableContext>
    </DndContext>
  );
});
