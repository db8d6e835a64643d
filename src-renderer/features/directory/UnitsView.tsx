import { Badge, Button, Grid, Group, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import type { AdministrativeUnit, ScopedRoleMemberView } from '@shared/contract/directory';
import { printRoute } from '../../app/routes';
import { QueryState } from '../../ui/QueryState';
import { AddRoleMemberDialog } from './components/AddRoleMemberDialog';
import { RemoveRoleMemberDialog } from './components/RemoveRoleMemberDialog';
import { ScopedMembersTable } from './components/ScopedMembersTable';
import { useUnitMembers, useUnits } from './use-directory';

/** `#/directory/units[/<id>]`: administrative units, and the roles delegated within the chosen one. */
export function UnitsView({ unitId }: { unitId: string | undefined }) {
  const units = useUnits();
  return (
    <QueryState
      query={units}
      loading="Reading administrative units…"
      errorTitle="The administrative units could not be read"
      empty="This tenant has no administrative units. Units scope admin roles to a part of the directory (a region, a school, a department)."
    >
      {(list) => <Units units={list} unitId={unitId} />}
    </QueryState>
  );
}

function Units({ units, unitId }: { units: AdministrativeUnit[]; unitId: string | undefined }) {
  const chosen = units.find((u) => u.id === unitId) ?? units[0]!;
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 4 }}>
        <nav aria-label="Administrative units">
          <Stack gap={4}>
            {units.map((unit) => (
              <UnstyledButton
                key={unit.id}
                component="a"
                href={printRoute({ section: 'directory', view: 'units', unitId: unit.id })}
                className="list-row"
                aria-current={unit.id === chosen.id ? 'true' : undefined}
              >
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
      <QueryState
        query={members}
        loading="Reading the unit’s role members…"
        errorTitle="The role members could not be read"
        empty="No one has a role scoped to this unit yet. Only tenant-wide administrators manage it; Add role member gives someone a role over this unit alone."
      >
        {(list) => <ScopedMembersTable members={list} onRemove={setRemoving} />}
      </QueryState>
      <AddRoleMemberDialog opened={adding} unit={unit} members={members.data ?? []} onClose={() => setAdding(false)} />
      <RemoveRoleMemberDialog unit={unit} member={removing} onClose={() => setRemoving(null)} />
    </Stack>
  );
}
