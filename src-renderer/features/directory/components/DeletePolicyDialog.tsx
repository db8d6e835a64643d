import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { AssignmentPolicy } from '@shared/contract/directory';

/** Asks before a policy is deleted; Graph refuses while assignments still use it, and says so. */
export function DeletePolicyDialog({
  policy,
  busy,
  onCancel,
  onConfirm,
}: {
  policy: AssignmentPolicy | null;
  busy: boolean;
  onCancel(): void;
  onConfirm(policy: AssignmentPolicy): void;
}) {
  return (
    <Modal opened={policy !== null} onClose={onCancel} title="Delete this policy?">
      {policy ? (
        <Stack gap="sm">
          <Text>
            “{policy.displayName}” will be deleted. People can no longer request the package through it. A policy that assignments still use
            cannot be deleted: remove those assignments first.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
            <Button color="red" loading={busy} onClick={() => onConfirm(policy)} data-autofocus>
              Delete policy
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
