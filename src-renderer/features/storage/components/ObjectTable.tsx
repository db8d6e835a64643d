import { Checkbox, Group, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconFile, IconFolder, IconSelector } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { SortField } from '@shared/contract/storage';
import { formatBytes } from '@renderer/ui/format';
import type { BrowserRow } from '../model/browser-rows';
import { isTyping } from '@renderer/ui/keyboard/is-typing';
import { isEmpty, isSelected, type Selection } from '../model/selection';

export interface ObjectTableProps {
  count: number;
  /** The row at an index, or undefined while its page is being read. */
  rowAt(index: number): BrowserRow | undefined;
  sort: SortField;
  descending: boolean;
  onSort(field: SortField): void;
  selection: Selection;
  onToggle(key: string): void;
  /** Nothing selected: selects every object of the folder; anything selected: clears. */
  onToggleAll(): void;
  onOpen(row: BrowserRow): void;
  /** Rows shown changed: pages around them are read; near the end, the next listing page. */
  onVisible(first: number, last: number): void;
  /** Keys the table does not handle itself (Delete, F2, Backspace...). */
  onKey(event: KeyboardEvent, row: BrowserRow | undefined): void;
  focusIndex: number;
  onFocusIndex(index: number): void;
}

const ROW_HEIGHT = 40;
const SORT_ICON = { asc: IconChevronUp, desc: IconChevronDown, none: IconSelector } as const;
const COLUMNS: Array<{ field?: SortField; label: string; width?: number }> = [
  { field: 'name', label: 'Name' },
  { field: 'size', label: 'Size', width: 110 },
  { field: 'type', label: 'Type', width: 190 },
  { label: 'Class', width: 110 },
  { field: 'time', label: 'Uploaded', width: 200 },
];

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function Cells({ row }: { row: BrowserRow }) {
  if (row.kind === 'folder') {
    return (
      <>
        <td>
          {row.bytes === undefined ? (
            <Text span c="dimmed">
              —
            </Text>
          ) : (
            formatBytes(row.bytes)
          )}
        </td>
        <td>
          {row.files === undefined ? 'Folder' : `Folder · ${row.files.toLocaleString('en-US')} ${row.files === 1 ? 'file' : 'files'}`}
        </td>
        <td />
        <td>{row.putTime ? timeFormat.format(row.putTime) : ''}</td>
      </>
    );
  }
  return (
    <>
      <td>{formatBytes(row.size)}</td>
      <td className="cell-ellipsis">{row.mimeType}</td>
      <td>{row.storageClass}</td>
      <td>{timeFormat.format(row.putTime)}</td>
    </>
  );
}

/** The column headings: the select-all box, and a sort button for each column that sorts. */
function HeaderRow({
  sort,
  descending,
  onSort,
  selection,
  onToggleAll,
}: Pick<ObjectTableProps, 'sort' | 'descending' | 'onSort' | 'selection' | 'onToggleAll'>) {
  const allSelected = selection.kind === 'all';
  return (
    <thead>
      <tr>
        <th style={{ width: 44 }}>
          <Checkbox
            aria-label={isEmpty(selection) ? 'Select all in this folder' : 'Clear the selection'}
            checked={allSelected}
            indeterminate={!isEmpty(selection) && !allSelected}
            onChange={onToggleAll}
          />
        </th>
        {COLUMNS.map((column) => {
          const active = column.field === sort;
          const Icon = SORT_ICON[active ? (descending ? 'desc' : 'asc') : 'none'];
          return (
            <th
              key={column.label}
              style={column.width ? { width: column.width } : undefined}
              aria-sort={active ? (descending ? 'descending' : 'ascending') : undefined}
            >
              {column.field ? (
                <UnstyledButton className="sort-button" onClick={() => onSort(column.field!)}>
                  {column.label}
                  <Icon size={14} aria-hidden="true" />
                </UnstyledButton>
              ) : (
                column.label
              )}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}

/**
 * The objects of a folder in a virtualized table: only the rows in view exist in the page, so
 * 100k rows scroll as smoothly as 100. Arrow keys move between rows, Enter opens, Space selects.
 */
export function ObjectTable(props: ObjectTableProps) {
  const { count, rowAt, sort, descending, onSort, selection, onToggle, onToggleAll, onOpen, onVisible, onKey, focusIndex, onFocusIndex } =
    props;
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? 0;
  useEffect(() => onVisible(first, last), [first, last, count, onVisible]);

  // After the arrow keys move the focus, the focused row's button takes it once it is rendered.
  const wantsFocus = useRef(false);
  useEffect(() => {
    if (!wantsFocus.current) return;
    const button = scroller.current?.querySelector<HTMLElement>(`[data-row-index="${focusIndex}"] .row-open`);
    if (button) {
      button.focus();
      wantsFocus.current = false;
    }
  });

  const move = (index: number) => {
    const next = Math.max(0, Math.min(count - 1, index));
    wantsFocus.current = true;
    onFocusIndex(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const row = rowAt(focusIndex);
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const jumps: Record<string, number> = {
      ArrowDown: focusIndex + 1,
      ArrowUp: focusIndex - 1,
      PageDown: focusIndex + page,
      PageUp: focusIndex - page,
      Home: 0,
      End: count - 1,
    };
    if (event.key in jumps && !event.altKey && !isTyping(event.target)) {
      event.preventDefault();
      move(jumps[event.key]!);
      return;
    }
    if (event.key === ' ' && row && event.target instanceof HTMLButtonElement && event.target.classList.contains('row-open')) {
      event.preventDefault();
      onToggle(row.key);
      return;
    }
    onKey(event, row);
  };

  const padTop = items[0]?.start ?? 0;
  const padBottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);

  return (
    <div ref={scroller} className="object-table-scroll" onKeyDown={onKeyDown} data-testid="object-table">
      <table className="object-table" aria-rowcount={count + 1}>
        <HeaderRow sort={sort} descending={descending} onSort={onSort} selection={selection} onToggleAll={onToggleAll} />
        <tbody>
          {padTop > 0 ? (
            <tr aria-hidden="true" style={{ height: padTop }}>
              <td colSpan={6} />
            </tr>
          ) : null}
          {items.map((item) => {
            const row = rowAt(item.index);
            return (
              <tr
                key={item.key}
                data-row-index={item.index}
                data-key={row?.key}
                aria-rowindex={item.index + 2}
                aria-selected={row ? isSelected(selection, row.key) : undefined}
                className={item.index === focusIndex ? 'row-focused' : undefined}
                style={{ height: ROW_HEIGHT }}
              >
                {row ? (
                  <>
                    <td>
                      <Checkbox
                        aria-label={`Select ${row.name}`}
                        checked={isSelected(selection, row.key)}
                        onChange={() => onToggle(row.key)}
                        tabIndex={-1}
                      />
                    </td>
                    <td className="cell-ellipsis">
                      <UnstyledButton
                        className="row-open"
                        tabIndex={item.index === focusIndex ? 0 : -1}
                        onFocus={() => onFocusIndex(item.index)}
                        onClick={() => onOpen(row)}
                        title={row.key}
                      >
                        <Group gap={8} wrap="nowrap">
                          {row.kind === 'folder' ? (
                            <IconFolder size={18} aria-hidden="true" className="folder-icon" />
                          ) : (
                            <IconFile size={18} aria-hidden="true" className="file-icon" />
                          )}
                          <span className="row-name">{row.name || '(no name)'}</span>
                        </Group>
                      </UnstyledButton>
                    </td>
                    <Cells row={row} />
                  </>
                ) : (
                  <td colSpan={6}>
                    <Text size="sm" c="dimmed">
                      Loading…
                    </Text>
                  </td>
                )}
              </tr>
            );
          })}
          {padBottom > 0 ? (
            <tr aria-hidden="true" style={{ height: padBottom }}>
              <td colSpan={6} />
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
