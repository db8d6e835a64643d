import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ScopedRoleMemberView } from '@shared/contract/directory';
import { memberNames, removeRefusalSentence } from '../model/scoped-members';
import { useRemoveScopedMember } from '../use-directory';

/** Asks before a person's role in a unit is taken away, naming both. */
export function RemoveRoleMemberDialog({
  unit,
  member,
  onClose,
}: {
  unit: { id: string; displayName: string };
  member: ScopedRoleMemberView | null;
  onClose(): void;
}) {
  const remove = useRemoveScopedMember(unit.id);
  const names = member ? memberNames(member) : null;
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Modal opened={member !== null} onClose={close} title="Remove this role member?">
      {member && names ? (
        <Stack gap="sm">
          <Text>
            {names.person} will no longer have {names.role} in {unit.displayName}. Roles they hold elsewhere stay as they are.
          </Text>
          {remove.isError ? (
            <Alert color="red" title="Not removed" role="alert" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
              {removeRefusalSentence(remove.error, names)}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {remove.isError ? 'Close' : 'Cancel'}
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              disabled={remove.isError}
              data-autofocus
              onClick={() =>
                remove.mutate(member.id, {
                  onSuccess: () => {
                    notifications.show({
                      title: 'Role removed',
                      message: `${names.person} no longer has ${names.role} in ${unit.displayName}.`,
                    });
                    close();
                  },
                })
              }
            >
              Remove role
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
