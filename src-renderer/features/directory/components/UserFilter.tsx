import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useUserSearch } from '../use-directory';

/** Narrows a list to one user, found by the start of a name in the directory. */
export function UserFilter({ value, onChange }: { value: string | undefined; onChange(id: string | undefined): void }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 200);
  const users = useUserSearch(debounced);
  const [chosenLabel, setChosenLabel] = useState<{ value: string; label: string } | null>(null);
  const options = (users.data ?? []).map((u) => ({
    value: u.id,
    label: `${u.displayName ?? u.id}${u.userPrincipalName ? ` (${u.userPrincipalName})` : ''}`,
  }));
  // The chosen user stays an option while other names are searched.
  const data = chosenLabel && !options.some((o) => o.value === chosenLabel.value) ? [chosenLabel, ...options] : options;
  return (
    <Select
      label="Target"
      placeholder="Anyone"
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      data={data}
      filter={({ options: all }) => all}
      value={value ?? null}
      onChange={(id, option) => {
        setChosenLabel(id && option ? { value: id, label: option.label } : null);
        onChange(id ?? undefined);
      }}
      nothingFoundMessage={users.isFetching ? 'Searching…' : 'No user starts with that'}
      w={260}
    />
  );
}
