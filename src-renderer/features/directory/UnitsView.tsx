import { Badge, Button, Grid, Group, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import type { ScopedRoleMemberView } from '../../../src-shared/contract/directory';
import { printRoute } from '../../app/routes';
import { LoadingLine } from '../../ui/LoadingLine';
import { ResultError } from '../../ui/ResultError';
import { AddRoleMemberDialog } from './components/AddRoleMemberDialog';
import { RemoveRoleMemberDialog } from './components/RemoveRoleMemberDialog';
import { ScopedMembersTable } from './components/ScopedMembersTable';
import { useUnitMembers, useUnits } from './use-directory';

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
          <ScopedMembers key={chosen.id} unit={{ id: chosen.id, displayName: chosen.displayName ?? chosen.id }} />
        </Stack>
      </Grid.Col>
    </Grid>
  );
}

/** The unit's role members with Add and Remove, as Entra's "Roles and administrators" of a unit. */
function ScopedMembers({ unit }: { unit: { id: string; displayName: string } }) {
  const members = useUnitMembers(unit.id);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<ScopedRoleMemberView | null>(null);
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={3} size="h4">
          Scoped role members
        </Title>
        <Button leftSection={<IconUserPlus size={16} />} onClick={() => setAdding(true)} disabled={!members.isSuccess}>
          Add role member
        </Button>
      </Group>
      {members.isPending ? (
        <LoadingLine>Reading the unit’s role members…</LoadingLine>
      ) : members.isError ? (
        <ResultError error={members.error} title="The role members could not be read" />
      ) : members.data.length === 0 ? (
        <div className="panel empty-state">
          <p>No one has a role scoped to this unit yet. Only tenant-wide administrators manage it; Add role member gives someone a role over this unit alone.</p>
        </div>
      ) : (
        <ScopedMembersTable members={members.data} onRemove={setRemoving} />
      )}
      <AddRoleMemberDialog opened={adding} unit={unit} members={members.data ?? []} onClose={() => setAdding(false)} />
      <RemoveRoleMemberDialog unit={unit} member={removing} onClose={() => setRemoving(null)} />
    </Stack>
  );
}
