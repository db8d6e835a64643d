import { ActionIcon, Group, TextInput, Tooltip } from '@mantine/core';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { IconGripVertical, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { sourceLabel } from '../model/stream-form';

export interface SourceRowProps {
  id: string;
  index: number;
  /** Only one source: nothing to reorder or remove. */
  alone: boolean;
  error: string | undefined;
  field: UseFormRegisterReturn;
  probing: boolean;
  probeDisabled: boolean;
  onProbe(): void;
  onRemove(): void;
}

/** One source of the stream: its URL, a handle to move it (drag, or Space and the arrow keys), probe and remove. */
export function SourceRow({ id, index, alone, error, field, probing, probeDisabled, onProbe, onRemove }: SourceRowProps) {
  const sortable = useSortable({ id, disabled: alone });
  const label = sourceLabel(index);
  return (
    <Group
      ref={sortable.setNodeRef}
      gap={4}
      align="flex-start"
      wrap="nowrap"
      role="listitem"
      style={{
        transform: CSS.Transform.toString(sortable.transform),
        transition: sortable.transition,
        position: 'relative',
        zIndex: sortable.isDragging ? 2 : undefined,
      }}
    >
      {alone ? null : (
        // No tooltip on the handle: its pointer handlers would compete with the drag's.
        <ActionIcon
          variant="subtle"
          mt={4}
          aria-label={`Move ${label}`}
          title="Drag to reorder (or Space, arrow keys, Space)"
          style={{ cursor: 'grab' }}
          {...sortable.attributes}
          {...sortable.listeners}
        >
          <IconGripVertical size={18} />
        </ActionIcon>
      )}
      <TextInput
        aria-label={label}
        placeholder="rtsp://user:password@192.168.1.20:554/stream1"
        error={error}
        style={{ flex: 1 }}
        {...field}
      />
      <Tooltip label="Probe: dial this source once, without saving">
        <ActionIcon variant="subtle" mt={4} onClick={onProbe} loading={probing} disabled={probeDisabled} aria-label={`Probe ${label}`}>
          <IconPlayerPlay size={18} />
        </ActionIcon>
      </Tooltip>
      {alone ? null : (
        <Tooltip label="Remove this source">
          <ActionIcon variant="subtle" color="red" mt={4} onClick={onRemove} aria-label={`Remove ${label}`}>
            <IconTrash size={18} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}
