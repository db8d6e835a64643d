import { Anchor, Badge, Button, Grid, Group, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { AccessPackage } from '@shared/contract/directory-packages';
import { printRoute } from '../../app/routes';
import { EmptyState } from '../../ui/EmptyState';
import { QueryState } from '../../ui/QueryState';
import { PolicyTable } from './components/PolicyTable';
import { usePackages } from './use-directory';

/** `#/directory[/packages/<id>]`: every access package by catalog; the chosen one's policies. */
export function PackagesView({ packageId }: { packageId: string | undefined }) {
  const packages = usePackages();
  return (
    <QueryState
      query={packages}
      loading="Reading access packages…"
      errorTitle="The access packages could not be read"
      empty="This tenant has no access packages yet. Create one in a catalog first; its assignment policies are then edited here."
    >
      {(list) => <Packages packages={list} packageId={packageId} />}
    </QueryState>
  );
}

function Packages({ packages, packageId }: { packages: AccessPackage[]; packageId: string | undefined }) {
  const chosen = packages.find((p) => p.id === packageId) ?? packages[0]!;
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 4 }}>
        <nav aria-label="Access packages">
          <Stack gap={4} data-testid="package-list">
            {packages.map((pkg) => (
              <UnstyledButton
                key={pkg.id}
                component="a"
                href={printRoute({ section: 'directory', view: 'packages', packageId: pkg.id })}
                className="list-row"
                aria-current={pkg.id === chosen.id ? 'true' : undefined}
              >
                <Text fw={500}>{pkg.displayName ?? pkg.id}</Text>
                <Text size="sm" c="dimmed">
                  {pkg.catalog?.displayName ?? 'No catalog'} · {pkg.assignmentPolicies.length}{' '}
                  {pkg.assignmentPolicies.length === 1 ? 'policy' : 'policies'}
                  {pkg.isHidden ? ' · hidden' : ''}
                </Text>
              </UnstyledButton>
            ))}
          </Stack>
        </nav>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Stack gap="sm" data-testid="package-details">
          <Group justify="space-between" align="flex-start">
            <div>
              <Title order={2} size="h3">
                {chosen.displayName}
              </Title>
              <Text c="dimmed" size="sm">
                {chosen.description || 'No description.'}
              </Text>
              <Group gap="xs" mt={4}>
                <Badge variant="light">{chosen.catalog?.displayName ?? 'No catalog'}</Badge>
                {chosen.isHidden ? (
                  <Badge variant="light" color="gray">
                    Hidden from requestors
                  </Badge>
                ) : null}
              </Group>
            </div>
            <Button
              component="a"
              href={printRoute({ section: 'directory', view: 'newPolicy', packageId: chosen.id })}
              leftSection={<IconPlus size={16} />}
            >
              New policy
            </Button>
          </Group>
          <Title order={3} size="h4">
            Assignment policies
          </Title>
          {chosen.assignmentPolicies.length > 0 ? (
            <PolicyTable packageId={chosen.id} policies={chosen.assignmentPolicies} />
          ) : (
            <EmptyState>
              No policy yet, so nobody can request or be given this package.{' '}
              <Anchor href={printRoute({ section: 'directory', view: 'newPolicy', packageId: chosen.id })}>Add the first policy</Anchor>.
            </EmptyState>
          )}
          <Text size="sm">
            <Anchor href={printRoute({ section: 'directory', view: 'assignments' })}>See the assignments</Anchor>
          </Text>
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
