import { Button, Group, TextInput } from '@mantine/core';
import {
  IconArrowsMove,
  IconArrowsTransferUpDown,
  IconCopy,
  IconDownload,
  IconFolderPlus,
  IconPencil,
  IconSearch,
  IconTrash,
} from '@tabler/icons-react';
import type { RefObject } from 'react';
import type { BatchItem } from '@shared/contract/storage';
import { printRoute } from '@renderer/app/routes';
import type { BrowserDialog } from '../model/browser-dialog';
import type { BatchTarget, Selection } from '../model/selection';
import { UploadMenu } from './UploadMenu';

export interface BrowserToolbarProps {
  searchRef: RefObject<HTMLInputElement | null>;
  searchText: string;
  onSearchText(text: string): void;
  onFiles(files: File[]): void;
  uploading: boolean;
  onDownload(): void;
  downloading: boolean;
  /** What the actions act on: the selection, or the focused row. */
  target: BatchTarget;
  /** The one item of the target, when it holds one: only then can it be renamed. */
  single: BatchItem | undefined;
  selection: Selection;
  onDialog(next: BrowserDialog): void;
}

/** Search by name prefix, and the actions on the selection of the bucket browser. */
export function BrowserToolbar({
  searchRef,
  searchText,
  onSearchText,
  onFiles,
  uploading,
  onDownload,
  downloading,
  target,
  single,
  selection,
  onDialog,
}: BrowserToolbarProps) {
  const nothing = 'items' in target && target.items.length === 0;
  const selectedRows = selection.kind === 'keys' ? selection.keys.size : 0;
  return (
    <Group gap="xs" justify="space-between">
      <TextInput
        ref={searchRef}
        aria-label="Search this folder by name prefix"
        placeholder="Names starting with… (/)"
        leftSection={<IconSearch size={16} />}
        value={searchText}
        onChange={(event) => onSearchText(event.currentTarget.value)}
        w={280}
      />
      <Group gap={6}>
        <UploadMenu onFiles={onFiles} busy={uploading} />
        <Button
          size="xs"
          variant="default"
          leftSection={<IconDownload size={16} />}
          disabled={nothing}
          loading={downloading}
          onClick={onDownload}
        >
          Download
        </Button>
        <Button size="xs" variant="default" leftSection={<IconFolderPlus size={16} />} onClick={() => onDialog({ kind: 'folder' })}>
          New folder
        </Button>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconPencil size={16} />}
          disabled={!single}
          onClick={() => single && onDialog({ kind: 'rename', item: single })}
        >
          Rename
        </Button>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconArrowsMove size={16} />}
          disabled={nothing}
          onClick={() => onDialog({ kind: 'move', target })}
        >
          Move
        </Button>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconCopy size={16} />}
          disabled={nothing}
          onClick={() => onDialog({ kind: 'copy', target })}
        >
          Copy
        </Button>
        <Button
          size="xs"
          variant="default"
          color="red"
          leftSection={<IconTrash size={16} />}
          disabled={nothing}
          onClick={() => onDialog({ kind: 'delete', target })}
        >
          {selection.kind === 'all' ? 'Delete all' : `Delete${selectedRows > 1 ? ` ${selectedRows}` : ''}`}
        </Button>
        <Button
          component="a"
          href={printRoute({ section: 'transfers' })}
          size="xs"
          variant="default"
          leftSection={<IconArrowsTransferUpDown size={16} />}
        >
          Transfers
        </Button>
      </Group>
    </Group>
  );
}
