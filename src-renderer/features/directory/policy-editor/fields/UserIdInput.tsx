import { Autocomplete, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useController } from 'react-hook-form';
import type { DirectoryUser } from '@shared/contract/directory-people';
import { useUserNames, useUserSearch } from '../../use-directory';
import { useFieldError } from './use-field-error';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const userLabel = (u: DirectoryUser) =>
  `${u.displayName ?? u.userPrincipalName ?? u.id}${u.userPrincipalName && u.displayName ? ` (${u.userPrincipalName})` : ''}`;

/**
 * A user, picked by typing the start of their name (the directory is searched) or by pasting
 * their object id. The form holds the id; the field shows the person's name once one is picked.
 */
export function UserIdInput({ name, label }: { name: string; label: string }) {
  const { field } = useController({ name: name as never });
  const error = useFieldError(name);
  const value = (field.value as string | undefined) ?? '';
  // What is being typed; null shows the user the field holds.
  const [typed, setTyped] = useState<string | null>(null);
  const searching = typed !== null && !GUID.test(typed.trim()) ? typed.trim() : '';
  const [search] = useDebouncedValue(searching, 200);
  const found = useUserSearch(search);
  const named = useUserNames(GUID.test(value) ? [value] : []);
  const user = named.data?.find((u) => u.id.toLowerCase() === value.toLowerCase());
  const options = searching ? (found.data ?? []).map((u) => ({ value: u.id, label: userLabel(u) })) : [];
  const labels = new Map(options.map((o) => [o.value, o.label]));
  const shown = typed ?? (user ? userLabel(user) : value);
  return (
    <Autocomplete
      label={label}
      placeholder="Start of a name, or an object id"
      value={shown}
      onChange={(text) => {
        // Picking an option sets the text to its value, the user's id: that is the choice made.
        if (labels.has(text)) {
          field.onChange(text);
          setTyped(null);
          return;
        }
        setTyped(text);
        // A pasted id is the choice itself; a cleared field chooses nobody.
        if (GUID.test(text.trim()) || text === '') field.onChange(text.trim());
      }}
      onOptionSubmit={(id) => {
        field.onChange(id);
        setTyped(null);
      }}
      onBlur={() => {
        // Typed but not picked: the field goes back to the user it holds.
        if (typed !== null && !GUID.test(typed.trim())) setTyped(null);
        field.onBlur();
      }}
      ref={field.ref}
      data={options.map((o) => o.value)}
      // Graph already matched the text; the options are ids, so filtering them by it would hide all.
      filter={({ options: all }) => all}
      renderOption={({ option }) => <Text size="sm">{labels.get(option.value) ?? option.value}</Text>}
      description={user ? `Object id ${user.id}` : GUID.test(value) && named.isSuccess ? 'No user with this id was found' : undefined}
      error={error}
      spellCheck={false}
      autoComplete="off"
    />
  );
}
