import { SegmentedControl, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import type { AssignmentPolicyBody } from '@shared/contract/directory';
import { DurationField } from '../fields/DurationField';
import { SwitchField } from '../fields/SwitchField';
import { useFieldError } from '../fields/use-field-error';

type ExpirationType = AssignmentPolicyBody['expiration']['type'];

/** When access ends (never, on a date, after a time) and whether people may extend or pick their own dates. */
export function LifecycleTab() {
  const { control, setValue } = useFormContext<AssignmentPolicyBody>();
  const type = useWatch({ control, name: 'expiration.type' });
  const endError = useFieldError('expiration.endDateTime');
  const choose = (next: ExpirationType) => {
    // Only the part that goes with the kind is kept: Graph reads the others as set.
    setValue(
      'expiration',
      { type: next, duration: next === 'afterDuration' ? 'P365D' : null, endDateTime: null },
      { shouldDirty: true, shouldValidate: true },
    );
  };
  return (
    <Stack gap="md" maw={720}>
      <div>
        <Text size="sm" fw={500} id="expiration-label">
          Assignments expire
        </Text>
        <SegmentedControl
          aria-labelledby="expiration-label"
          value={type === 'notSpecified' ? 'noExpiration' : type}
          onChange={(value) => choose(value as ExpirationType)}
          data={[
            { value: 'noExpiration', label: 'Never' },
            { value: 'afterDateTime', label: 'On a date' },
            { value: 'afterDuration', label: 'After a time' },
          ]}
        />
      </div>
      {type === 'afterDuration' ? <DurationField name="expiration.duration" label="Access lasts" /> : null}
      {type === 'afterDateTime' ? (
        <Controller
          name="expiration.endDateTime"
          render={({ field }) => (
            <DatePickerInput
              label="Access ends on (UTC)"
              value={typeof field.value === 'string' ? field.value.slice(0, 10) : null}
              onChange={(value) => field.onChange(value ? `${String(value).slice(0, 10)}T23:59:59Z` : null)}
              error={endError}
              clearable
              w={260}
            />
          )}
        />
      ) : null}
      <SwitchField
        name="requestorSettings.enableTargetsToSelfUpdateAccess"
        label="People can ask to extend their access"
        description="An extension goes through the same approval as a new request, if the Approval tab requires it."
      />
      <SwitchField name="requestorSettings.allowCustomAssignmentSchedule" label="Requestors may choose their own start and end" />
    </Stack>
  );
}
