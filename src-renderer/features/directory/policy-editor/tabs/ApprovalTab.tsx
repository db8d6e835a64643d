import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import type { AssignmentPolicyBody } from '@shared/contract/directory';
import { newApprovalStage } from '../../model/policy-form-values';
import { DurationField } from '../fields/DurationField';
import { SubjectSetField } from '../fields/SubjectSetField';
import { SwitchField } from '../fields/SwitchField';
import { useFieldError } from '../fields/use-field-error';

const MAX_STAGES = 3;

/** Whether requests need approval, and up to three stages of approvers with their timeouts and escalation. */
export function ApprovalTab() {
  const { control, setValue } = useFormContext<AssignmentPolicyBody>();
  const settings = useWatch({ control, name: 'requestApprovalSettings' });
  const { fields, append, remove } = useFieldArray({ control, name: 'requestApprovalSettings.stages' as never });
  const stagesError = useFieldError('requestApprovalSettings.stages');
  if (!settings) {
    return (
      <Stack gap="sm" maw={720}>
        <Text>Requests are granted without approval.</Text>
        <Button
          variant="light"
          w="fit-content"
          onClick={() =>
            setValue(
              'requestApprovalSettings',
              {
                isApprovalRequiredForAdd: true,
                isApprovalRequiredForUpdate: false,
                isRequestorJustificationRequired: false,
                stages: [newApprovalStage([{ '@odata.type': '#microsoft.graph.requestorManager', managerLevel: 1 }])],
              },
              { shouldDirty: true },
            )
          }
        >
          Require approval
        </Button>
      </Stack>
    );
  }
  return (
    <Stack gap="md" maw={1000}>
      <SwitchField name="requestApprovalSettings.isApprovalRequiredForAdd" label="Require approval for new requests" />
      <SwitchField name="requestApprovalSettings.isApprovalRequiredForUpdate" label="Require approval for extensions" />
      <SwitchField name="requestApprovalSettings.isRequestorJustificationRequired" label="Requestors must give a justification" />
      {fields.map((field, index) => (
        <ApprovalStage key={field.id} index={index} onRemove={() => remove(index)} />
      ))}
      {stagesError ? (
        <Text size="sm" c="red" role="alert">
          {stagesError}
        </Text>
      ) : null}
      <Button
        variant="light"
        leftSection={<IconPlus size={16} />}
        w="fit-content"
        disabled={fields.length >= MAX_STAGES}
        onClick={() => append(newApprovalStage() as never)}
      >
        Add approval stage
      </Button>
    </Stack>
  );
}

function ApprovalStage({ index, onRemove }: { index: number; onRemove(): void }) {
  const at = `requestApprovalSettings.stages.${index}`;
  const escalates = useWatch({ name: `${at}.isEscalationEnabled` as never }) as unknown as boolean | undefined;
  return (
    <Card withBorder padding="md" role="group" aria-label={`Approval stage ${index + 1}`} data-testid="approval-stage">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h5">
            Stage {index + 1}
          </Title>
          <Button variant="subtle" color="red" size="xs" leftSection={<IconTrash size={14} />} onClick={onRemove}>
            Remove stage {index + 1}
          </Button>
        </Group>
        <SubjectSetField name={`${at}.primaryApprovers`} label={`Stage ${index + 1} approvers`} place="approvers" />
        <SubjectSetField
          name={`${at}.fallbackPrimaryApprovers`}
          label={`Stage ${index + 1} backup approvers`}
          place="approvers"
          description="Used when the approvers cannot be resolved (e.g. no manager)."
        />
        <DurationField name={`${at}.durationBeforeAutomaticDenial`} label={`Stage ${index + 1}: deny if not decided within`} />
        <SwitchField name={`${at}.isApproverJustificationRequired`} label="Approvers must give a justification" />
        <SwitchField name={`${at}.isEscalationEnabled`} label="Escalate when the approvers do not decide" />
        {escalates ? (
          <>
            <DurationField name={`${at}.durationBeforeEscalation`} label={`Stage ${index + 1}: escalate after`} />
            <SubjectSetField name={`${at}.escalationApprovers`} label={`Stage ${index + 1} escalation approvers`} place="approvers" />
            <SubjectSetField
              name={`${at}.fallbackEscalationApprovers`}
              label={`Stage ${index + 1} backup escalation approvers`}
              place="approvers"
            />
          </>
        ) : null}
      </Stack>
    </Card>
  );
}
