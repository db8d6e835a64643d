import { Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState, type Ref } from 'react';
import type { DirectoryUser } from '@shared/contract/directory-people';
import { personName } from '../model/scoped-members';
import { useUserSearch } from '../use-directory';

interface PersonPickerProps {
  label: string;
  value: string;
  onChange(user: DirectoryUser | null): void;
  onBlur?(): void;
  inputRef?: Ref<HTMLInputElement>;
  error?: string | undefined;
}

/**
 * One person, found by typing the start of their name or sign-in name: the directory is
 * searched as they type, and each option shows both, as two people may share a name.
 */
export function PersonPicker({ label, value, onChange, onBlur, inputRef, error }: PersonPickerProps) {
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<DirectoryUser | null>(null);
  // Once someone is picked the box shows their name: that text is not a new search.
  const typed = chosen && search === personName(chosen) ? '' : search.trim();
  const [debounced] = useDebouncedValue(typed, 200);
  const users = useUserSearch(debounced);
  const found = users.data ?? [];
  // The chosen person stays an option while other names are searched.
  const people = chosen && !found.some((u) => u.id === chosen.id) ? [chosen, ...found] : found;
  const byId = new Map(people.map((u) => [u.id, u]));
  const searchError = users.isError ? `The directory could not be searched: ${users.error.message}` : undefined;
  return (
    <Select
      label={label}
      placeholder="Type the start of a name or sign-in name"
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      data={people.map((u) => ({ value: u.id, label: personName(u) }))}
      // The directory already matched the text (names and sign-in names); filtering again by label would hide sign-in name matches.
      filter={({ options }) => options}
      value={value === '' ? null : value}
      onChange={(id) => {
        const user = id ? (byId.get(id) ?? null) : null;
        setChosen(user);
        onChange(user);
      }}
      onBlur={onBlur}
      ref={inputRef}
      renderOption={({ option }) => {
        const user = byId.get(option.value);
        return (
          <Stack gap={0}>
            <Text size="sm">{option.label}</Text>
            {user?.userPrincipalName ? (
              <Text size="xs" c="dimmed">
                {user.userPrincipalName}
              </Text>
            ) : null}
          </Stack>
        );
      }}
      description={chosen?.userPrincipalName ?? undefined}
      nothingFoundMessage={users.isFetching ? 'Searching…' : 'No one’s name or sign-in name starts with that'}
      error={error ?? searchError}
      allowDeselect={false}
      spellCheck={false}
      autoComplete="off"
    />
  );
}
