import { Stack, Text, Textarea, TextInput } from '@mantine/core';
import { Controller, useFormContext } from 'react-hook-form';
import { Switch } from '@mantine/core';
import type { AssignmentPolicyBody } from '@shared/contract/directory';
import { useFieldError } from '../fields/use-field-error';

/** Name, description and the package the policy belongs to (fixed once the policy exists). */
export function BasicsTab({ packageName }: { packageName: string }) {
  const { register } = useFormContext<AssignmentPolicyBody>();
  const nameError = useFieldError('displayName');
  const descriptionError = useFieldError('description');
  return (
    <Stack gap="md" maw={720}>
      <TextInput label="Name" required maxLength={256} error={nameError} {...register('displayName')} data-autofocus />
      <Textarea
        label="Description"
        description="Shown to requestors in the My Access portal."
        autosize
        minRows={2}
        maxRows={6}
        error={descriptionError}
        {...register('description')}
      />
      <div>
        <Text size="sm" fw={500}>
          Access package
        </Text>
        <Text size="sm">{packageName}</Text>
      </div>
      <Controller
        name="notificationSettings"
        render={({ field }) => (
          <Switch
            label="Send assignment notifications"
            description="Email the requestor when access is granted or removed."
            checked={(field.value as AssignmentPolicyBody['notificationSettings'])?.isAssignmentNotificationDisabled !== true}
            onChange={(event) => field.onChange({ isAssignmentNotificationDisabled: !event.currentTarget.checked })}
          />
        )}
      />
    </Stack>
  );
}
