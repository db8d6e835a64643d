import { Autocomplete, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useController } from 'react-hook-form';
import { useUserNames, useUserSearch } from '../../use-directory';
import { useFieldError } from './use-field-error';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A user's object id: typed as the start of a name (the directory is searched) or pasted as an
 * id. The field holds the id; the user it names is shown under it.
 */
export function UserIdInput({ name, label }: { name: string; label: string }) {
  const { field } = useController({ name: name as never });
  const error = useFieldError(name);
  const value = (field.value as string | undefined) ?? '';
  const [search] = useDebouncedValue(GUID.test(value) ? '' : value, 200);
  const found = useUserSearch(search);
  const named = useUserNames(GUID.test(value) ? [value] : []);
  const user = named.data?.find((u) => u.id.toLowerCase() === value.toLowerCase());
  const options = (found.data ?? []).map((u) => ({ value: u.id, label: `${u.displayName ?? u.userPrincipalName ?? u.id} · ${u.userPrincipalName ?? ''}` }));
  const labels = new Map(options.map((o) => [o.value, o.label]));
  return (
    <Autocomplete
      label={label}
      placeholder="Start of a name, or an object id"
      value={value}
      onChange={field.onChange}
      onBlur={field.onBlur}
      ref={field.ref}
      data={options.map((o) => o.value)}
      // Graph already matched the text; the options are ids, so filtering them by it would hide all.
      filter={({ options: all }) => all}
      renderOption={({ option }) => <Text size="sm">{labels.get(option.value) ?? option.value}</Text>}
      description={user ? `${user.displayName ?? ''} · ${user.userPrincipalName ?? ''}` : GUID.test(value) && named.isSuccess ? 'No user with this id was found' : undefined}
      error={error}
      spellCheck={false}
      autoComplete="off"
    />
  );
}
