import { Select, TextInput } from '@mantine/core';
import { useController, useWatch } from 'react-hook-form';
import { useCustomExtensions, usePackageCatalogId } from '../../use-directory';
import { useFieldError } from './use-field-error';

/**
 * Which custom extension a stage calls: picked by name from the catalog's custom workflow
 * extensions. Where the service does not list them, the id is typed, and the field says why.
 */
export function ExtensionIdInput({ name, label }: { name: string; label: string }) {
  const { field } = useController({ name: name as never });
  const error = useFieldError(name);
  const packageId = useWatch({ name: 'accessPackage.id' }) as string | undefined;
  const catalogId = usePackageCatalogId(packageId);
  const extensions = useCustomExtensions(catalogId);
  const value = (field.value as string | undefined) ?? '';

  if (!extensions.isSuccess) {
    const description = extensions.isError
      ? `The catalog’s custom extensions could not be listed (${extensions.error.message}): enter the extension’s id.`
      : catalogId
        ? 'Reading the catalog’s custom extensions…'
        : 'Enter the custom extension’s id.';
    return (
      <TextInput
        label={label}
        description={description}
        spellCheck={false}
        style={{ flex: 1 }}
        error={error}
        value={value}
        onChange={(event) => field.onChange(event.currentTarget.value)}
        onBlur={field.onBlur}
        ref={field.ref}
      />
    );
  }
  const options = extensions.data.map((extension) => ({ value: extension.id, label: extension.displayName ?? extension.id }));
  // An id the catalog does not list (removed since, or typed elsewhere) stays visible as it is.
  if (value && !options.some((option) => option.value.toLowerCase() === value.toLowerCase()))
    options.push({ value, label: `${value} (not in this catalog)` });
  return (
    <Select
      label={label}
      placeholder="Choose a custom extension"
      data={options}
      value={value || null}
      onChange={(next) => field.onChange(next ?? '')}
      onBlur={field.onBlur}
      ref={field.ref}
      searchable
      nothingFoundMessage="No custom extension of this catalog has that name"
      error={error}
      style={{ flex: 1 }}
    />
  );
}
