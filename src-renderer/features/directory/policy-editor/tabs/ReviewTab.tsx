import { Badge, Code, Stack, Table, Text } from '@mantine/core';
import { useWatch } from 'react-hook-form';
import type { AssignmentPolicyBody } from '../../../../../src-shared/contract/directory';
import { policyDiff, type PolicyChange } from '../../model/policy-diff';
import { bodyToSend } from '../../model/policy-resolver';

const KIND_COLOR = { added: 'green', removed: 'red', changed: 'blue' } as const;
const show = (value: unknown) => (value === undefined ? '' : JSON.stringify(value));

/**
 * What a save sends, against what the service has: one row per changed property, and the
 * request itself as it will go out (a PUT replaces the whole policy; a new one is a POST).
 */
export function ReviewTab({ saved, requestLine }: { saved: AssignmentPolicyBody | null; requestLine: string }) {
  const values = useWatch() as AssignmentPolicyBody;
  const body = bodyToSend(values);
  const changes: PolicyChange[] = policyDiff(saved ? bodyToSend(saved) : {}, body);
  return (
    <Stack gap="sm">
      <Text size="sm">
        <Code>{requestLine}</Code>
      </Text>
      {changes.length === 0 ? (
        <Text data-testid="review-no-changes">Nothing has changed: saving would send the policy as the service has it.</Text>
      ) : (
        <Table verticalSpacing="xs" data-testid="review-diff" aria-label="Changes to be saved">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={230}>Property</Table.Th>
              <Table.Th w={120}>Change</Table.Th>
              <Table.Th>Now</Table.Th>
              <Table.Th>After saving</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {changes.map((change) => (
              <Table.Tr key={change.path} data-path={change.path}>
                <Table.Td>
                  <Code>{change.path}</Code>
                </Table.Td>
                <Table.Td>
                  <Badge variant="dot" color={KIND_COLOR[change.kind]}>
                    {change.kind}
                  </Badge>
                </Table.Td>
                <Table.Td className={change.kind === 'added' ? undefined : 'diff-before'}>{change.kind === 'added' ? '—' : show(change.before)}</Table.Td>
                <Table.Td className={change.kind === 'removed' ? undefined : 'diff-after'}>{change.kind === 'removed' ? '—' : show(change.after)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <details>
        <summary>The whole request body</summary>
        <Code block>{JSON.stringify(body, null, 2)}</Code>
      </details>
    </Stack>
  );
}
