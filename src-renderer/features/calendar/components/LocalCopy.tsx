import { ActionIcon, Drawer, Group, Stack, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconChevronLeft, IconChevronRight, IconSearch } from '@tabler/icons-react';
import { memo, useMemo, useState } from 'react';
import type { CalendarEvent } from '@shared/contract/directory';
import { QueryState } from '@renderer/ui/QueryState';
import { ResultError } from '@renderer/ui/ResultError';
import { eventsOfDay, weekOf } from '../model/sync-status-text';
import { useEventSearch, useEventsInRange } from '../use-calendar-sync';

const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long' });
const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const whenFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function EventLine({ event, onOpen }: { event: CalendarEvent; onOpen(): void }) {
  return (
    <UnstyledButton
      onClick={onOpen}
      className="agenda-event"
      aria-label={`${event.subject ?? '(no subject)'}, ${whenFormat.format(Date.parse(event.start))}`}
    >
      <Text size="sm" span fw={500}>
        {event.isAllDay ? 'All day' : `${timeFormat.format(Date.parse(event.start))}–${timeFormat.format(Date.parse(event.end))}`}
      </Text>{' '}
      <Text size="sm" span td={event.isCancelled ? 'line-through' : undefined}>
        {event.subject ?? '(no subject)'}
      </Text>
      {event.location ? (
        <Text size="xs" span>
          {' '}
          · {event.location}
        </Text>
      ) : null}
    </UnstyledButton>
  );
}

/**
 * The local copy: a week as an agenda, a search by subject over all of it, an event's details.
 * Memoized: a week can hold a thousand events, and the status above changes on every page.
 */
export const LocalCopy = memo(function LocalCopy() {
  const [day, setDay] = useState(() => new Date());
  const week = useMemo(() => weekOf(day), [day]);
  const events = useEventsInRange(week.start, week.end);
  const [searchText, setSearchText] = useState('');
  const [search] = useDebouncedValue(searchText.trim(), 250);
  const found = useEventSearch(search);
  const [open, setOpen] = useState<CalendarEvent>();
  const shift = (days: number) => setDay((d) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + days));

  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Group gap={4}>
          <ActionIcon variant="default" aria-label="Previous week" onClick={() => shift(-7)}>
            <IconChevronLeft size={16} />
          </ActionIcon>
          <ActionIcon variant="default" aria-label="Next week" onClick={() => shift(7)}>
            <IconChevronRight size={16} />
          </ActionIcon>
          <Text size="sm" fw={500} ml="xs" data-testid="agenda-week">
            Week of {dayFormat.format(week.start)}
          </Text>
        </Group>
        <TextInput
          size="xs"
          w={260}
          leftSection={<IconSearch size={14} />}
          aria-label="Search events by subject"
          placeholder="Search by subject"
          value={searchText}
          onChange={(e) => setSearchText(e.currentTarget.value)}
        />
      </Group>
      {search ? (
        <div data-testid="event-search" className="agenda" tabIndex={0} aria-label="Events found">
          {found.isError ? <ResultError error={found.error} title="The search failed" /> : null}
          {found.data && found.data.length === 0 ? <Text size="sm">No event of the local copy has “{search}” in its subject.</Text> : null}
          {found.data?.map((event) => (
            <EventLine key={event.id} event={event} onOpen={() => setOpen(event)} />
          ))}
        </div>
      ) : (
        <div data-testid="agenda" className="agenda" tabIndex={0} aria-label="Agenda of the week">
          <QueryState query={events} loading="Reading the local copy…" errorTitle="The local copy could not be read" />
          {events.data
            ? week.days.map((d) => {
                const ofDay = eventsOfDay(events.data, d);
                return (
                  <div key={d.toISOString()} className="agenda-day">
                    <Text size="sm" fw={600}>
                      {dayFormat.format(d)}
                    </Text>
                    {ofDay.length === 0 ? (
                      <Text size="xs">Nothing</Text>
                    ) : (
                      ofDay.map((event) => <EventLine key={event.id} event={event} onOpen={() => setOpen(event)} />)
                    )}
                  </div>
                );
              })
            : null}
        </div>
      )}
      <Drawer
        opened={open !== undefined}
        onClose={() => setOpen(undefined)}
        position="right"
        size="md"
        title={open?.subject ?? '(no subject)'}
      >
        {open ? (
          <Stack gap="xs">
            <Table withRowBorders={false} verticalSpacing={4} data-testid="event-facts">
              <Table.Tbody>
                <Table.Tr>
                  <Table.Th w={110}>When</Table.Th>
                  <Table.Td>
                    {open.isAllDay
                      ? `${whenFormat.format(Date.parse(open.start))}, all day`
                      : `${whenFormat.format(Date.parse(open.start))} – ${whenFormat.format(Date.parse(open.end))}`}
                  </Table.Td>
                </Table.Tr>
                {open.location ? (
                  <Table.Tr>
                    <Table.Th>Where</Table.Th>
                    <Table.Td>{open.location}</Table.Td>
                  </Table.Tr>
                ) : null}
                <Table.Tr>
                  <Table.Th>Changed</Table.Th>
                  <Table.Td>{open.lastModifiedDateTime ? whenFormat.format(Date.parse(open.lastModifiedDateTime)) : '—'}</Table.Td>
                </Table.Tr>
                {open.isCancelled ? (
                  <Table.Tr>
                    <Table.Th>State</Table.Th>
                    <Table.Td>Cancelled</Table.Td>
                  </Table.Tr>
                ) : null}
              </Table.Tbody>
            </Table>
            <Text size="sm" fw={600}>
              As Graph sent it
            </Text>
            <pre className="text-preview" tabIndex={0}>
              {JSON.stringify(open.graph, null, 2)}
            </pre>
          </Stack>
        ) : null}
      </Drawer>
    </Stack>
  );
});
