import { Anchor, Badge, Code, Drawer, Stack, Text, Title } from '@mantine/core';
import { printRoute } from '@renderer/app/routes';
import { useUi } from '@renderer/app/ui-store-context';
import { formatDateTime } from '@renderer/ui/format';
import { QueryState } from '@renderer/ui/QueryState';
import { ASSIGNMENT_STATE_LABELS, scheduleText, targetText } from '../model/assignment-cells';
import { targetScopeLabel } from '../model/policy-summary';
import { useAssignment } from '../use-directory';

type Loose = Record<string, unknown>;
const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : '—');

/** An assignment read with `$expand=target,accessPackage,assignmentPolicy`: who holds which package, through which policy. */
export function AssignmentDetails({ assignmentId }: { assignmentId: string | undefined }) {
  const navigate = useUi((s) => s.navigate);
  const assignment = useAssignment(assignmentId);
  const a = assignment.data;
  const target = (a?.target ?? {}) as Loose;
  const pkg = (a?.accessPackage ?? {}) as Loose;
  const policy = (a?.assignmentPolicy ?? {}) as Loose;
  return (
    <Drawer
      opened={assignmentId !== undefined}
      onClose={() => navigate({ section: 'directory', view: 'assignments' })}
      position="right"
      size="lg"
      title="Assignment"
    >
      <QueryState query={assignment} loading="Reading the assignment…" errorTitle="The assignment could not be read" />
      {a ? (
        <Stack gap="md" data-testid="assignment-details">
          <div>
            <Title order={3} size="h4">
              {targetText(a.target)}
            </Title>
            <Badge variant="light" mt={4}>
              {ASSIGNMENT_STATE_LABELS[a.state ?? ''] ?? a.state ?? 'Unknown state'}
            </Badge>
          </div>
          <dl className="facts">
            <dt>Target</dt>
            <dd>
              {str(target.displayName)} · {str(target.principalName ?? target.email)} · {str(target.subjectType)}
            </dd>
            <dt>Object id</dt>
            <dd>{str(target.objectId ?? target.id)}</dd>
            <dt>Access package</dt>
            <dd data-testid="assignment-package">
              {typeof pkg.id === 'string' ? (
                <Anchor href={printRoute({ section: 'directory', view: 'packages', packageId: pkg.id })}>{str(pkg.displayName)}</Anchor>
              ) : (
                '—'
              )}
              {typeof pkg.description === 'string' && pkg.description ? (
                <Text size="xs" c="dimmed">
                  {pkg.description}
                </Text>
              ) : null}
            </dd>
            <dt>Policy</dt>
            <dd data-testid="assignment-policy">
              {typeof policy.id === 'string' ? (
                <Anchor href={printRoute({ section: 'directory', view: 'policy', policyId: policy.id })}>{str(policy.displayName)}</Anchor>
              ) : (
                '—'
              )}
              {typeof policy.allowedTargetScope === 'string' ? (
                <Text size="xs" c="dimmed">
                  Who can request: {targetScopeLabel(policy.allowedTargetScope)}
                </Text>
              ) : null}
            </dd>
            <dt>Status</dt>
            <dd>{str(a.status)}</dd>
            <dt>Schedule</dt>
            <dd>{scheduleText(a.schedule, formatDateTime)}</dd>
            <dt>Expired</dt>
            <dd>{a.expiredDateTime ? formatDateTime(a.expiredDateTime) : '—'}</dd>
          </dl>
          <details>
            <summary>As Graph returned it</summary>
            <Code block>{JSON.stringify(a, null, 2)}</Code>
          </details>
        </Stack>
      ) : null}
    </Drawer>
  );
}
