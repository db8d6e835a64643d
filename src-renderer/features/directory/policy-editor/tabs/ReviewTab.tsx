import { Badge, Button, Code, List, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import type { AssignmentPolicyBody } from '@shared/contract/directory';
import { policyDiff, type PolicyChange } from '../../model/policy-diff';
import { bodyToSend } from '../../model/policy-resolver';
import { expirationText, reviewSummary, stageText, userIdsIn, valueText } from '../../model/review-summary';
import { useCustomExtensions, usePackageCatalogId, useUserNames } from '../../use-directory';

const KIND_COLOR = { added: 'green', removed: 'red', changed: 'blue' } as const;
const json = (value: unknown) => (value === undefined ? '' : JSON.stringify(value, null, 2));

/**
 * What a save sends, against what the service has: one row per changed property, said in
 * words (who reviews, how often, what happens at the end); the JSON of each value and of the
 * whole request (a PUT replaces the whole policy; a new one is a POST) behind "Show JSON".
 */
export function ReviewTab({ saved, requestLine }: { saved: AssignmentPolicyBody | null; requestLine: string }) {
  const values = useWatch() as AssignmentPolicyBody;
  const [showJson, setShowJson] = useState(false);
  const body = bodyToSend(values);
  const before = saved ? bodyToSend(saved) : {};
  const changes: PolicyChange[] = policyDiff(before, body);
  const users = useUserNames(userIdsIn([before, body]));
  const extensions = useCustomExtensions(usePackageCatalogId(values.accessPackage?.id));
  const names = new Map<string, string>([
    ...(users.data ?? []).map((u) => [u.id.toLowerCase(), u.displayName ?? u.userPrincipalName ?? u.id] as const),
    ...(extensions.data ?? []).map((e) => [e.id.toLowerCase(), e.displayName ?? e.id] as const),
  ]);
  const cell = (change: PolicyChange, value: unknown) =>
    showJson ? <Code block>{json(value)}</Code> : valueText(change.path, value, names);
  const stages = values.requestApprovalSettings?.stages ?? [];
  return (
    <Stack gap="sm">
      <Text size="sm">
        <Code>{requestLine}</Code>
      </Text>
      <List size="sm" spacing={2} data-testid="review-summary" aria-label="The policy after saving">
        <List.Item>Access: {expirationText(values.expiration)}.</List.Item>
        <List.Item>
          Approval:{' '}
          {values.requestApprovalSettings?.isApprovalRequiredForAdd && stages.length
            ? stages.map((stage, i) => `${stages.length > 1 ? `Stage ${i + 1}: ` : ''}${stageText(stage, names)}`).join(' ')
            : 'Not needed.'}
        </List.Item>
        <List.Item>Access reviews: {reviewSummary(values.reviewSettings, names)}</List.Item>
      </List>
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
                <Table.Td className={change.kind === 'added' ? undefined : 'diff-before'}>
                  {change.kind === 'added' ? '—' : cell(change, change.before)}
                </Table.Td>
                <Table.Td className={change.kind === 'removed' ? undefined : 'diff-after'}>
                  {change.kind === 'removed' ? '—' : cell(change, change.after)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Button variant="subtle" w="fit-content" aria-expanded={showJson} onClick={() => setShowJson((shown) => !shown)}>
        {showJson ? 'Hide JSON' : 'Show JSON'}
      </Button>
      {showJson ? (
        <Stack gap={4} id="review-request-body">
          <Text size="sm" fw={500}>
            The whole request body
          </Text>
          <Code block data-testid="review-json">
            {JSON.stringify(body, null, 2)}
          </Code>
        </Stack>
      ) : null}
    </Stack>
  );
}
