import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { ScopedRoleMemberView } from '@shared/contract/directory';
import type { DirectoryUser } from '@shared/contract/directory-people';
import { newScopedRoleMemberSchema, type NewScopedRoleMember } from '@shared/directory/scoped-roles';
import { addRefusalSentence, heldMembership, personName, roleChoices } from '../model/scoped-members';
import { useAddScopedMember, useScopableRoles } from '../use-directory';
import { PersonPicker } from './PersonPicker';

interface AddRoleMemberDialogProps {
  opened: boolean;
  unit: { id: string; displayName: string };
  members: readonly ScopedRoleMemberView[];
  onClose(): void;
}

/** "Add role member": a role a unit can scope and a person, given together (Entra's Add assignments). */
export function AddRoleMemberDialog({ opened, unit, members, onClose }: AddRoleMemberDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={`Add a role member to ${unit.displayName}`} size="lg">
      {/* The form lives only while the dialog is open: each opening starts empty. */}
      {opened ? <AddRoleMemberForm unit={unit} members={members} onDone={onClose} /> : null}
    </Modal>
  );
}

function AddRoleMemberForm({
  unit,
  members,
  onDone,
}: {
  unit: AddRoleMemberDialogProps['unit'];
  members: readonly ScopedRoleMemberView[];
  onDone(): void;
}) {
  const roles = useScopableRoles(true);
  const add = useAddScopedMember(unit.id);
  const form = useForm<NewScopedRoleMember>({
    resolver: zodResolver(newScopedRoleMemberSchema),
    defaultValues: { roleId: '', memberId: '' },
  });
  const [person, setPerson] = useState<DirectoryUser | null>(null);
  const roleId = form.watch('roleId');
  const memberId = form.watch('memberId');
  const role = roles.data?.find((r) => r.id === roleId);
  const names = { person: person ? personName(person) : 'This person', role: role?.displayName ?? 'This role' };
  const held = roleId !== '' && memberId !== '' ? heldMembership(members, roleId, memberId) : undefined;
  const choices = roleChoices(roles.data ?? [], members, memberId);
  const descriptions = new Map(choices.map((c) => [c.value, c.description]));

  const submit = form.handleSubmit((values) =>
    add.mutate(values, {
      onSuccess: () => {
        notifications.show({
          color: 'green',
          title: 'Role assigned',
          message: `${names.person} now has ${names.role} in ${unit.displayName}.`,
        });
        onDone();
      },
    }),
  );

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          The person can use the role only for the users, groups and devices in this unit.
        </Text>
        <Controller
          control={form.control}
          name="roleId"
          render={({ field, fieldState }) => (
            <Select
              label="Role"
              placeholder={roles.isPending ? 'Reading roles…' : 'Choose or type a role'}
              searchable
              selectFirstOptionOnChange
              data={choices.map(({ value, label, disabled }) => ({ value, label, disabled }))}
              value={field.value === '' ? null : field.value}
              onChange={(id) => {
                field.onChange(id ?? '');
                add.reset();
              }}
              onBlur={field.onBlur}
              ref={field.ref}
              // Focused on opening (the dialog starts here), and typeable while the roles are still read.
              data-autofocus
              renderOption={({ option }) => (
                <Stack gap={0}>
                  <Text size="sm">
                    {option.label}
                    {option.disabled ? ' (already assigned)' : ''}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {descriptions.get(option.value)}
                  </Text>
                </Stack>
              )}
              description={role?.description ?? undefined}
              nothingFoundMessage={
                roles.isPending
                  ? 'Reading roles…'
                  : roles.isError
                    ? 'The roles could not be read'
                    : roles.data.length === 0
                      ? 'This directory has no active role that a unit can scope.'
                      : 'No role has that name'
              }
              error={fieldState.error?.message ?? (roles.isError ? `The roles could not be read: ${roles.error.message}` : undefined)}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
              maxDropdownHeight={320}
            />
          )}
        />
        <Controller
          control={form.control}
          name="memberId"
          render={({ field, fieldState }) => (
            <PersonPicker
              label="Person"
              value={field.value}
              onChange={(user) => {
                setPerson(user);
                field.onChange(user?.id ?? '');
                add.reset();
              }}
              onBlur={field.onBlur}
              inputRef={field.ref}
              error={fieldState.error?.message}
            />
          )}
        />
        {held && !add.isError ? (
          <Text size="sm" role="status">
            {names.person} already has {names.role} in this unit.
          </Text>
        ) : null}
        {add.isError ? (
          <Alert color="red" title="Not assigned" role="alert" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
            {addRefusalSentence(add.error, names)}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending} disabled={roleId === '' || memberId === '' || held !== undefined}>
            Assign
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
