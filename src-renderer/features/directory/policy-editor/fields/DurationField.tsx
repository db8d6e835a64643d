import { Group, NumberInput, Select } from '@mantine/core';
import { useState } from 'react';
import { useController } from 'react-hook-form';
import { useFieldError } from './use-field-error';
import { DURATION_UNITS, durationParts, isoDuration, type DurationUnit } from '../../model/iso-duration-parts';

/**
 * An ISO 8601 duration (P14D, PT12H) as a number and a unit. Emptying the number clears the
 * duration (null); a value the pair cannot show (PT30M) is kept until the number is changed.
 */
export function DurationField({ name, label, description }: { name: string; label: string; description?: string }) {
  const { field } = useController({ name: name as never });
  const error = useFieldError(name);
  const value = field.value as string | null | undefined;
  const parts = durationParts(value);
  const [unit, setUnit] = useState<DurationUnit>(parts?.unit ?? 'days');
  const shownUnit = parts?.unit ?? unit;
  const write = (amount: number | string, nextUnit: DurationUnit) => {
    field.onChange(typeof amount === 'number' && amount > 0 ? isoDuration({ amount, unit: nextUnit }) : null);
  };
  return (
    <Group align="flex-start" gap="xs" wrap="nowrap">
      <NumberInput
        label={label}
        description={description ?? (value && !parts ? `Now ${value}` : undefined)}
        min={1}
        max={9999}
        allowDecimal={false}
        value={parts?.amount ?? ''}
        onChange={(amount) => write(amount, shownUnit)}
        onBlur={field.onBlur}
        ref={field.ref}
        error={error}
        w={220}
      />
      <Select
        label="Unit"
        aria-label={`${label}: unit`}
        data={DURATION_UNITS.map((u) => ({ value: u, label: u }))}
        value={shownUnit}
        allowDeselect={false}
        onChange={(next) => {
          const u = (next ?? 'days') as DurationUnit;
          setUnit(u);
          if (parts) write(parts.amount, u);
        }}
        w={110}
      />
    </Group>
  );
}
