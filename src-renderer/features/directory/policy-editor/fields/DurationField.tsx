import { Group, NumberInput, Select } from '@mantine/core';
import { useState } from 'react';
import { useController, useFormContext } from 'react-hook-form';
import { useFieldError } from './use-field-error';
import { DURATION_UNITS, durationParts, isoDuration, type DurationUnit } from '../../model/iso-duration-parts';

/**
 * An ISO 8601 duration (P14D, PT12H) as a number and a unit. Emptying the number clears the
 * duration (null); a value the pair cannot show (PT30M) is kept until the number is changed.
 * What is typed is written as typed, 0 and 99999 included: the shared rules say at the field
 * what is out of range, rather than the input bending it to a limit of its own.
 */
export function DurationField({ name, label, description }: { name: string; label: string; description?: string }) {
  const { field } = useController({ name: name as never });
  const { trigger } = useFormContext();
  const error = useFieldError(name, { asTyped: true });
  const value = field.value as string | null | undefined;
  const parts = durationParts(value);
  const [unit, setUnit] = useState<DurationUnit>(parts?.unit ?? 'days');
  const shownUnit = parts?.unit ?? unit;
  const write = (amount: number | string, nextUnit: DurationUnit) => {
    field.onChange(typeof amount === 'number' && Number.isInteger(amount) && amount >= 0 ? isoDuration({ amount, unit: nextUnit }) : null);
    void trigger(name as never);
  };
  return (
    <Group align="flex-start" gap="xs" wrap="nowrap">
      <NumberInput
        label={label}
        description={description ?? (value && !parts ? `Now ${value}` : undefined)}
        allowDecimal={false}
        allowNegative={false}
        clampBehavior="none"
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
