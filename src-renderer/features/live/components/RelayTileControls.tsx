import { Select, Switch } from '@mantine/core';
import { ALL_RELAYS, type RelayFilter } from '../model/relay-tiles';

/** Which relay's tiles the grid shows, and whether they are grouped by relay. */
export function RelayTileControls({
  relays,
  filter,
  grouped,
  onFilter,
  onGrouped,
}: {
  relays: readonly string[];
  filter: RelayFilter;
  grouped: boolean;
  onFilter(filter: RelayFilter): void;
  onGrouped(grouped: boolean): void;
}) {
  return (
    <>
      <Select
        aria-label="Relay"
        value={filter}
        onChange={(value) => onFilter(value ?? ALL_RELAYS)}
        data={[{ value: ALL_RELAYS, label: 'All relays' }, ...relays.map((relay) => ({ value: relay, label: relay }))]}
        allowDeselect={false}
        w={160}
      />
      <Switch label="Group by relay" checked={grouped} onChange={(event) => onGrouped(event.currentTarget.checked)} />
    </>
  );
}
