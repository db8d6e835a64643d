import { Select, Stack, Title } from '@mantine/core';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { allowedTargetScopeSchema, type AssignmentPolicyBody } from '@shared/contract/directory';
import { TARGET_SCOPE_LABELS } from '../../model/policy-summary';
import { SubjectSetField } from '../fields/SubjectSetField';
import { SwitchField } from '../fields/SwitchField';
import { useFieldError } from '../fields/use-field-error';

const SCOPES = allowedTargetScopeSchema.options.filter((scope) => scope !== 'unknownFutureValue');

/** Who may request (or be given) access, whether requests are open, and who may ask for others. */
export function RequestsTab() {
  const { control } = useFormContext<AssignmentPolicyBody>();
  const scope = useWatch({ control, name: 'allowedTargetScope' });
  const onBehalf = useWatch({ control, name: 'requestorSettings.enableOnBehalfRequestorsToAddAccess' });
  const scopeError = useFieldError('allowedTargetScope');
  return (
    <Stack gap="md" maw={900}>
      <Controller
        name="allowedTargetScope"
        render={({ field }) => (
          <Select
            label="Who can request access"
            data={SCOPES.map((value) => ({ value, label: TARGET_SCOPE_LABELS[value] ?? value }))}
            value={field.value as string}
            onChange={(value) => field.onChange(value ?? 'notSpecified')}
            allowDeselect={false}
            error={scopeError}
            maw={480}
          />
        )}
      />
      {scope.startsWith('specific') ? (
        <SubjectSetField
          name="specificAllowedTargets"
          label="Allowed requestors"
          place="allowedTargets"
          description="Users, groups or organizations who may request."
        />
      ) : null}
      <Title order={3} size="h5">
        Requests
      </Title>
      <SwitchField
        name="requestorSettings.enableTargetsToSelfAddAccess"
        label="Enable new requests"
        description="People in scope can request the package for themselves."
      />
      <SwitchField name="requestorSettings.enableTargetsToSelfRemoveAccess" label="Requestors can remove their own access" />
      <SwitchField
        name="requestorSettings.enableOnBehalfRequestorsToAddAccess"
        label="Allow requests on behalf of others"
        description="Managers or named people request for someone else."
      />
      {onBehalf ? (
        <>
          <SwitchField
            name="requestorSettings.enableOnBehalfRequestorsToUpdateAccess"
            label="They can also extend access on behalf of others"
          />
          <SwitchField
            name="requestorSettings.enableOnBehalfRequestorsToRemoveAccess"
            label="They can also remove access on behalf of others"
          />
          <SubjectSetField name="requestorSettings.onBehalfRequestors" label="On-behalf requestors" place="onBehalfRequestors" />
        </>
      ) : null}
    </Stack>
  );
}
