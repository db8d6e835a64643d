import { Button, Group, Popover, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconCalendarEvent, IconPlayerPause, IconPlayerPlay, IconRefresh, IconRefreshAlert } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import type { CalendarSyncStatus } from '@shared/contract/directory';

type Action = { kind: 'syncNow' | 'stop' | 'resync' } | { kind: 'start'; start?: string; end?: string };

/** Sync now, pause or resume, a full resync, and a new window for the view. */
export function SyncControls({ status, busy, onAction }: { status: CalendarSyncStatus; busy: boolean; onAction(action: Action): void }) {
  const running = status.state !== 'stopped';
  const [range, setRange] = useState<[string | null, string | null]>([
    status.target ? dayjs(status.target.start).format('YYYY-MM-DD') : null,
    status.target ? dayjs(status.target.end).subtract(1, 'day').format('YYYY-MM-DD') : null,
  ]);
  const [open, setOpen] = useState(false);
  const [from, to] = range;
  const applyWindow = () => {
    if (!from || !to) return;
    // Whole days in UTC: from the first day's start to the end of the last day.
    onAction({ kind: 'start', start: `${from}T00:00:00Z`, end: `${dayjs(to).add(1, 'day').format('YYYY-MM-DD')}T00:00:00Z` });
    setOpen(false);
  };
  return (
    <Group gap="xs">
      <Button
        size="xs"
        leftSection={<IconRefresh size={16} />}
        disabled={!running}
        loading={busy && status.state === 'syncing'}
        onClick={() => onAction({ kind: 'syncNow' })}
      >
        Sync now
      </Button>
      {running ? (
        <Button size="xs" variant="default" leftSection={<IconPlayerPause size={16} />} onClick={() => onAction({ kind: 'stop' })}>
          Pause
        </Button>
      ) : (
        <Button size="xs" variant="default" leftSection={<IconPlayerPlay size={16} />} onClick={() => onAction({ kind: 'start' })}>
          {status.target ? 'Resume' : 'Start syncing'}
        </Button>
      )}
      <Button
        size="xs"
        variant="default"
        leftSection={<IconRefreshAlert size={16} />}
        disabled={!running}
        onClick={() => onAction({ kind: 'resync' })}
      >
        Full resync
      </Button>
      <Popover opened={open} onChange={setOpen} position="bottom-end" trapFocus withArrow>
        <Popover.Target>
          <Button size="xs" variant="default" leftSection={<IconCalendarEvent size={16} />} onClick={() => setOpen((o) => !o)}>
            Change window
          </Button>
        </Popover.Target>
        <Popover.Dropdown>
          <Stack gap="xs" w={300}>
            <DatePickerInput
              type="range"
              label="Days of the view (UTC)"
              size="xs"
              value={range}
              onChange={setRange}
              allowSingleDateInRange
            />
            <Text size="xs">A new window starts a full synchronisation of the view.</Text>
            <Group justify="flex-end">
              <Button size="xs" disabled={!from || !to} onClick={applyWindow}>
                Sync this window
              </Button>
            </Group>
          </Stack>
        </Popover.Dropdown>
      </Popover>
    </Group>
  );
}
