import { Button, Table, Text, VisuallyHidden } from '@mantine/core';
import type { ScopedRoleMemberView } from '@shared/contract/directory';
import { memberNames } from '../model/scoped-members';

const KIND_LABELS = { user: 'User', group: 'Group', servicePrincipal: 'Service principal', unknown: 'Unknown' } as const;

/** A unit's role members: role, person, sign-in name, kind, and a Remove button per row. */
export function ScopedMembersTable({
  members,
  onRemove,
}: {
  members: readonly ScopedRoleMemberView[];
  onRemove(member: ScopedRoleMemberView): void;
}) {
  return (
    <Table verticalSpacing="sm" data-testid="scoped-members">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Role</Table.Th>
          <Table.Th>Member</Table.Th>
          <Table.Th>User principal name</Table.Th>
          <Table.Th>Kind</Table.Th>
          <Table.Th>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {members.map((member) => {
          const names = memberNames(member);
          return (
            <Table.Tr key={member.id} data-member={member.id}>
              <Table.Td>
                <Text fw={500} size="sm">
                  {member.roleName ?? 'Unknown role'}
                </Text>
                {member.roleName ? null : (
                  <Text size="xs" c="dimmed">
                    {member.roleId}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{member.memberName ?? member.memberId}</Table.Td>
              <Table.Td>{member.memberPrincipalName ?? '—'}</Table.Td>
              <Table.Td>{KIND_LABELS[member.memberKind]}</Table.Td>
              <Table.Td ta="right">
                <Button
                  variant="subtle"
                  color="red"
                  size="xs"
                  aria-label={`Remove ${names.role} from ${names.person}`}
                  onClick={() => onRemove(member)}
                >
                  Remove
                </Button>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
