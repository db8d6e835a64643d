import { Button, Group, Input, Stack } from '@mantine/core';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { IconPlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { dropMove, sourceLabel } from '../model/stream-form';

export interface SourceListProps {
  /** The rows' stable ids, in order (react-hook-form's field ids). */
  ids: string[];
  description: string;
  error: string | undefined;
  canAdd: boolean;
  onAdd(): void;
  onMove(from: number, to: number): void;
  row(id: string, index: number): ReactNode;
}

/**
 * The stream's sources in the order the relay asks them for each viewer's codecs (go2rtc's
 * `name: [src1, src2]`): reordered by dragging a handle or from the keyboard, announced by
 * position to screen readers.
 */
export function SourceList({ ids, description, error, canAdd, onAdd, onMove, row }: SourceListProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const position = (id: string | number | undefined) => sourceLabel(ids.indexOf(String(id)));
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${position(active.id)}. Arrow keys move it, Space drops it, Escape cancels.`,
    onDragOver: ({ active, over }) =>
      over ? `${position(active.id)} is over position ${ids.indexOf(String(over.id)) + 1} of ${ids.length}.` : undefined,
    onDragEnd: ({ active, over }) =>
      over
        ? `${position(active.id)} dropped at position ${ids.indexOf(String(over.id)) + 1} of ${ids.length}.`
        : `${position(active.id)} dropped.`,
    onDragCancel: ({ active }) => `Moving ${position(active.id)} cancelled.`,
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const move = dropMove(ids, String(active.id), over ? String(over.id) : undefined);
    if (move) onMove(move.from, move.to);
  };
  return (
    <Input.Wrapper label="Sources" description={description} error={error}>
      <Stack gap="xs" mt={6}>
        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={{ announcements }}>
          <SortableContext items={ids} strategy={verticalListSortingStrategy}>
            <Stack gap="xs" role="list" aria-label="Sources">
              {ids.map((id, index) => row(id, index))}
            </Stack>
          </SortableContext>
        </DndContext>
        <Group>
          <Button variant="default" size="xs" leftSection={<IconPlus size={14} />} onClick={onAdd} disabled={!canAdd}>
            Add source
          </Button>
        </Group>
      </Stack>
    </Input.Wrapper>
  );
}
