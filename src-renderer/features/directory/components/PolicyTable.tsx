import { ActionIcon, Anchor, Group, Table, Text, Tooltip } from '@mantine/core';
import { IconCopy, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { AssignmentPolicy } from '@shared/contract/directory';
import { printRoute } from '@renderer/app/routes';
import { formatDateTime } from '@renderer/ui/format';
import { ResultError } from '@renderer/ui/ResultError';
import { approvalSummary, expirationSummary, targetScopeLabel } from '../model/policy-summary';
import { useDeletePolicy } from '../use-directory';
import { DeletePolicyDialog } from './DeletePolicyDialog';

/** A package's policies: who may request, approval, expiration; edit, duplicate or delete each. */
export function PolicyTable({ packageId, policies }: { packageId: string; policies: AssignmentPolicy[] }) {
  const [deleting, setDeleting] = useState<AssignmentPolicy | null>(null);
  const remove = useDeletePolicy();
  return (
    <>
      <Table highlightOnHover verticalSpacing="sm" data-testid="policy-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Policy</Table.Th>
            <Table.Th>Who can request</Table.Th>
            <Table.Th>Approval</Table.Th>
            <Table.Th>Expires</Table.Th>
            <Table.Th>Modified</Table.Th>
            <Table.Th>
              <span className="visually-hidden">Actions</span>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {policies.map((policy) => (
            <Table.Tr key={policy.id} data-policy={policy.id}>
              <Table.Td>
                <Anchor href={printRoute({ section: 'directory', view: 'policy', policyId: policy.id })} fw={500}>
                  {policy.displayName || policy.id}
                </Anchor>
                {policy.description ? (
                  <Text size="xs" c="dimmed" lineClamp={1}>
                    {policy.description}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>{targetScopeLabel(policy.allowedTargetScope)}</Table.Td>
              <Table.Td>{approvalSummary(policy)}</Table.Td>
              <Table.Td>{expirationSummary(policy)}</Table.Td>
              <Table.Td>{policy.modifiedDateTime ? formatDateTime(policy.modifiedDateTime) : '—'}</Table.Td>
              <Table.Td>
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  <Tooltip label="Duplicate">
                    <ActionIcon
                      component="a"
                      variant="subtle"
                      href={printRoute({ section: 'directory', view: 'newPolicy', packageId, copyOf: policy.id })}
                      aria-label={`Duplicate ${policy.displayName ?? 'policy'}`}
                    >
                      <IconCopy size={18} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Delete">
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Delete ${policy.displayName ?? 'policy'}`}
                      onClick={() => setDeleting(policy)}
                    >
                      <IconTrash size={18} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {remove.isError ? <ResultError error={remove.error} title="The policy was not deleted" /> : null}
      <DeletePolicyDialog
        policy={deleting}
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={(policy) => remove.mutate({ policyId: policy.id }, { onSettled: () => setDeleting(null) })}
      />
    </>
  );
}
