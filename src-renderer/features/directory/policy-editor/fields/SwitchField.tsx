import { Switch } from '@mantine/core';
import { useController } from 'react-hook-form';
import { useFieldError } from './use-field-error';

/** A yes/no property of the policy; a missing value reads as no, as Graph reads it. */
export function SwitchField({ name, label, description }: { name: string; label: string; description?: string }) {
  const { field } = useController({ name: name as never });
  const error = useFieldError(name);
  return (
    <Switch
      label={label}
      description={description}
      checked={field.value === true}
      onChange={(event) => field.onChange(event.currentTarget.checked)}
      onBlur={field.onBlur}
      ref={field.ref}
      error={error}
    />
  );
}
