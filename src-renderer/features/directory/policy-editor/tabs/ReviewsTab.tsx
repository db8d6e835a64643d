import { Button, Group, NumberInput, Select, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import type { AssignmentPolicyBody } from '@shared/contract/directory';
import { DurationField } from '../fields/DurationField';
import { SubjectSetField } from '../fields/SubjectSetField';
import { SwitchField } from '../fields/SwitchField';
import { useFieldError } from '../fields/use-field-error';

const RECURRENCES = [
  { value: 'weekly', label: 'Weekly' },
  { value: 'absoluteMonthly', label: 'Monthly' },
  { value: 'absoluteYearly', label: 'Yearly' },
  { value: 'daily', label: 'Daily' },
];
const DEFAULTS = [
  { value: 'keepAccess', label: 'Keep access' },
  { value: 'removeAccess', label: 'Remove access' },
  { value: 'acceptAccessRecommendation', label: 'Take the recommendation' },
];

function firstReview(): NonNullable<AssignmentPolicyBody['reviewSettings']> {
  const start = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  return {
    isEnabled: true,
    expirationBehavior: 'keepAccess',
    isRecommendationEnabled: true,
    isReviewerJustificationRequired: true,
    isSelfReview: false,
    primaryReviewers: [{ '@odata.type': '#microsoft.graph.requestorManager', managerLevel: 1 }],
    fallbackReviewers: [],
    schedule: {
      startDateTime: `${start}T00:00:00Z`,
      expiration: { type: 'afterDuration', duration: 'P14D', endDateTime: null },
      recurrence: { pattern: { type: 'absoluteMonthly', interval: 3 }, range: { type: 'noEnd' } },
    },
  };
}

/** Recurring access reviews: when, who reviews (and who stands in), and what happens when nobody decides. */
export function ReviewsTab() {
  const { control, setValue } = useFormContext<AssignmentPolicyBody>();
  const review = useWatch({ control, name: 'reviewSettings' });
  const startError = useFieldError('reviewSettings.schedule.startDateTime');
  const recurrenceError = useFieldError('reviewSettings.schedule.recurrence');
  if (!review) {
    return (
      <Stack gap="sm" maw={720}>
        <Text>Assignments are not reviewed.</Text>
        <Button variant="light" w="fit-content" onClick={() => setValue('reviewSettings', firstReview(), { shouldDirty: true })}>
          Set up access reviews
        </Button>
      </Stack>
    );
  }
  return (
    <Stack gap="md" maw={1000}>
      <SwitchField name="reviewSettings.isEnabled" label="Review assignments regularly" />
      <Group align="flex-start">
        <Controller
          name="reviewSettings.schedule.startDateTime"
          render={({ field }) => (
            <DatePickerInput
              label="First review (UTC)"
              value={typeof field.value === 'string' ? field.value.slice(0, 10) : null}
              onChange={(value) => field.onChange(value ? `${String(value).slice(0, 10)}T00:00:00Z` : null)}
              error={startError}
              w={220}
            />
          )}
        />
        <Controller
          name="reviewSettings.schedule.recurrence.pattern.type"
          render={({ field }) => (
            <Select
              label="Repeats"
              data={RECURRENCES}
              value={(field.value as string) ?? null}
              onChange={(value) => field.onChange(value)}
              allowDeselect={false}
              error={recurrenceError}
              w={160}
            />
          )}
        />
        <Controller
          name="reviewSettings.schedule.recurrence.pattern.interval"
          render={({ field }) => (
            <NumberInput
              label="Every"
              min={1}
              max={99}
              allowDecimal={false}
              value={(field.value as number) ?? 1}
              onChange={(value) => field.onChange(typeof value === 'number' ? value : 1)}
              w={100}
            />
          )}
        />
      </Group>
      <DurationField name="reviewSettings.schedule.expiration.duration" label="Each review lasts" />
      <SwitchField name="reviewSettings.isSelfReview" label="People review their own access" />
      <SubjectSetField name="reviewSettings.primaryReviewers" label="Reviewers" place="reviewers" />
      <SubjectSetField
        name="reviewSettings.fallbackReviewers"
        label="Fallback reviewers"
        place="reviewers"
        description="Used when the reviewers cannot be resolved."
      />
      <Controller
        name="reviewSettings.expirationBehavior"
        render={({ field }) => (
          <Select
            label="If reviewers do not respond"
            data={DEFAULTS}
            value={(field.value as string) ?? null}
            onChange={(value) => field.onChange(value)}
            allowDeselect={false}
            w={280}
          />
        )}
      />
      <SwitchField name="reviewSettings.isRecommendationEnabled" label="Show recommendations to reviewers" />
      <SwitchField name="reviewSettings.isReviewerJustificationRequired" label="Reviewers must give a justification" />
      <Button variant="subtle" color="red" w="fit-content" onClick={() => setValue('reviewSettings', null, { shouldDirty: true })}>
        Turn access reviews off
      </Button>
    </Stack>
  );
}
