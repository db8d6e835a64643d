import { Badge, Grid, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { printRoute } from '../../app/routes';
import { LoadingLine } from '../../ui/LoadingLine';
import { ResultError } from '../../ui/ResultError';
import { useUnitMembers, useUnits } from './use-directory';

const KIND_LABELS = { user: 'User', group: 'Group', servicePrincipal: 'Service principal', unknown: 'Unknown' } as const;

/** `#/directory/units[/<id>]`: administrative units, and the roles delegated within the chosen one. */
export function UnitsView({ unitId }: { unitId: string | undefined }) {
  const units = useUnits();
  if (units.isPending) return <LoadingLine>Reading administrative units…</LoadingLine>;
  if (units.isError) return <ResultError error={units.error} title="The administrative units could not be read" />;
  if (units.data.length === 0) {
    return (
      <div className="panel empty-state">
        <p>This tenant has no administrative units. Units scope admin roles to a part of the directory (a region, a school, a department).</p>
      </div>
    );
  }
  const chosen = units.data.find((u) => u.id === unitId) ?? units.data[0]!;
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 4 }}>
        <nav aria-label="Administrative units">
          <Stack gap={4}>
            {units.data.map((unit) => (
              <UnstyledButton key={unit.id} component="a" href={printRoute({ section: 'directory', view: 'units', unitId: unit.id })} className="list-row" aria-current={unit.id === chosen.id ? 'true' : undefined}>
                <Text fw={500}>{unit.displayName ?? unit.id}</Text>
                <Text size="sm" c="dimmed" lineClamp={1}>
                  {unit.description || 'No description'}
                </Text>
              </UnstyledButton>
            ))}
          </Stack>
        </nav>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Stack gap="sm">
          <div>
            <Title order={2} size="h3">
              {chosen.displayName}
            </Title>
            <Text size="sm" c="dimmed">
              {chosen.description || 'No description.'}
            </Text>
            {chosen.visibility ? (
              <Badge variant="light" mt={4}>
                {chosen.visibility === 'HiddenMembership' ? 'Hidden membership' : chosen.visibility}
              </Badge>
            ) : null}
          </div>
          <Title order={3} size="h4">
            Scoped role members
          </Title>
          <ScopedMembers unitId={chosen.id} />
        </Stack>
      </Grid.Col>
    </Grid>
  );
}

function ScopedMembers({ unitId }: { unitId: string }) {
  const members = useUnitMembers(unitId);
  if (members.isPending) return <LoadingLine>Reading the unit’s role members…</LoadingLine>;
  if (members.isError) return <ResultError error={members.error} title="The role members could not be read" />;
  if (members.data.length === 0) {
    return (
      <div className="panel empty-state">
        <p>No role is delegated in this unit: only tenant-wide administrators manage it.</p>
      </div>
    );
  }
  return (
    <Table verticalSpacing="sm" data-testid="scoped-members">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Role</Table.Th>
          <Table.Th>Member</Table.Th>
          <Table.Th>User principal name</Table.Th>
          <Table.Th>Kind</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {members.data.map((member) => (
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
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
