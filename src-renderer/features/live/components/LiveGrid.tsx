import { DndContext, KeyboardSensor, PointerSensor, closestCenter, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, rectSortingStrategy, sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import type { LiveLayout } from '@shared/contract/preferences';
import { gridColumns } from '../model/grid-layout';
import type { LiveTile } from '../model/relay-tiles';
import type { PlayerMode } from '../player/player-types';
import { Tile } from './Tile';

export interface LiveGridProps {
  /** The tiles of this grid, in the user's order. */
  tiles: LiveTile[];
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

/** The tiles in the chosen layout; drag a tile's handle (or use the keyboard) to reorder. */
export function LiveGrid(props: LiveGridProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) props.onMove(String(active.id), String(over.id));
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={props.tiles.map((tile) => tile.id)} strategy={rectSortingStrategy}>
        <div className="live-grid" style={{ gridTemplateColumns: gridColumns(props.layout) }} role="list" aria-label={props.label}>
          {props.tiles.map((tile, at) => {
            const index = props.offset + at;
            const stream = tile.id;
            return (
              <div role="listitem" key={stream}>
                <Tile
                  tile={tile}
                  showRelay={props.showRelay}
                  base={props.base}
                  selected={props.selected === index}
                  audible={!!props.audible[stream]}
                  forced={props.forced[stream]}
                  onSelect={() => props.onSelect(index)}
                  onPopout={() => props.onPopout(stream)}
                  onToggleSound={() => props.onToggleSound(stream)}
                  onForce={(mode) => props.onForce(stream, mode)}
                  elementRef={(element) => props.tileRef(stream, element)}
                />
              </div>
            );
          })}
        </div>
      </SortableContext>
    </DndContext>
  );
}
