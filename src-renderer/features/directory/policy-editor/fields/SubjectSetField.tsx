import { ActionIcon, Button, Group, Menu, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller, useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import type { SubjectSet } from '@shared/contract/directory';
import {
  blankSubject,
  kindOf,
  SUBJECT_KIND_LABELS,
  SUBJECT_KINDS_BY_PLACE,
  type SubjectKind,
  type SubjectPlace,
} from '../../model/subject-kinds';
import { useFieldError } from './use-field-error';
import { UserIdInput } from './UserIdInput';

/**
 * A list of "who": allowed requestors, approvers or reviewers. Each entry is one subject set
 * kind with its own fields; the kinds offered are the ones Graph accepts at this place.
 */
export function SubjectSetField({
  name,
  label,
  place,
  description,
}: {
  name: string;
  label: string;
  place: SubjectPlace;
  description?: string;
}) {
  const { control } = useFormContext();
  const { fields, append, remove, update } = useFieldArray({ control, name: name as never });
  const items = (useWatch({ control, name: name as never }) as SubjectSet[] | undefined) ?? [];
  const error = useFieldError(name);
  const kinds = SUBJECT_KINDS_BY_PLACE[place];
  return (
    <Stack gap={6} role="group" aria-label={label}>
      <Group justify="space-between">
        <div>
          <Text fw={500} size="sm">
            {label}
          </Text>
          {description ? (
            <Text size="xs" c="dimmed">
              {description}
            </Text>
          ) : null}
        </div>
        <Menu position="bottom-end">
          <Menu.Target>
            <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} aria-label={`Add to ${label}`}>
              Add
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {kinds.map((kind) => (
              <Menu.Item key={kind} onClick={() => append(blankSubject(kind) as never)}>
                {SUBJECT_KIND_LABELS[kind]}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      </Group>
      {fields.length === 0 ? (
        <Text size="sm" c="dimmed">
          None.
        </Text>
      ) : null}
      {fields.map((field, index) => {
        const item = items[index];
        if (!item) return null;
        const kind = kindOf(item);
        const at = `${name}.${index}`;
        return (
          <Group key={field.id} align="flex-start" gap="xs" className="subject-row" wrap="nowrap" data-testid="subject-row">
            <Select
              label="Kind"
              aria-label={`${label} ${index + 1}: kind`}
              data={[...new Set([...kinds, kind])].map((k) => ({ value: k, label: SUBJECT_KIND_LABELS[k] }))}
              value={kind}
              allowDeselect={false}
              onChange={(next) => next && next !== kind && update(index, blankSubject(next as SubjectKind) as never)}
              w={220}
            />
            <SubjectFields at={at} kind={kind} label={`${label} ${index + 1}`} />
            <ActionIcon variant="subtle" color="red" mt={26} aria-label={`Remove ${label} ${index + 1}`} onClick={() => remove(index)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        );
      })}
      {error ? (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}

function SubjectFields({ at, kind, label }: { at: string; kind: SubjectKind; label: string }) {
  const { register } = useFormContext();
  const idError = useFieldError(`${at}.${ID_FIELD[kind] ?? 'x'}`);
  const ruleError = useFieldError(`${at}.membershipRule`);
  const levelError = useFieldError(`${at}.managerLevel`);
  switch (kind) {
    case 'singleUser':
      return (
        <Group grow style={{ flex: 1 }} align="flex-start">
          <UserIdInput name={`${at}.userId`} label="User" />
          <TextInput label="Shown as" placeholder="Optional description" {...register(`${at}.description`)} />
        </Group>
      );
    case 'requestorManager':
    case 'targetManager':
      return (
        <Controller
          name={`${at}.managerLevel`}
          render={({ field }) => (
            <NumberInput
              label="Manager level"
              aria-label={`${label}: manager level`}
              description={kind === 'requestorManager' ? '1 is the direct manager; 2 their manager' : '1 to 4 levels up'}
              min={1}
              max={kind === 'requestorManager' ? 2 : 4}
              allowDecimal={false}
              value={field.value as number}
              onChange={(value) => field.onChange(typeof value === 'number' ? value : 1)}
              ref={field.ref}
              error={levelError}
              w={200}
            />
          )}
        />
      );
    case 'groupMembers':
    case 'connectedOrganizationMembers':
    case 'singleServicePrincipal':
      return (
        <Group grow style={{ flex: 1 }} align="flex-start">
          <TextInput label={ID_LABEL[kind]} spellCheck={false} error={idError} {...register(`${at}.${ID_FIELD[kind]}`)} />
          <TextInput label="Shown as" placeholder="Optional description" {...register(`${at}.description`)} />
        </Group>
      );
    case 'attributeRuleMembers':
      return (
        <Group grow style={{ flex: 1 }} align="flex-start">
          <TextInput
            label="Membership rule"
            placeholder='(user.department -eq "Sales")'
            spellCheck={false}
            error={ruleError}
            {...register(`${at}.membershipRule`)}
          />
          <TextInput label="Shown as" placeholder="Optional description" {...register(`${at}.description`)} />
        </Group>
      );
    default:
      return (
        <Text size="sm" c="dimmed" mt={30} style={{ flex: 1 }}>
          Resolved by Graph for each request.
        </Text>
      );
  }
}

const ID_FIELD: Partial<Record<SubjectKind, string>> = {
  groupMembers: 'groupId',
  connectedOrganizationMembers: 'connectedOrganizationId',
  singleServicePrincipal: 'servicePrincipalId',
  singleUser: 'userId',
};
const ID_LABEL: Partial<Record<SubjectKind, string>> = {
  groupMembers: 'Group object id',
  connectedOrganizationMembers: 'Connected organization id',
  singleServicePrincipal: 'Service principal object id',
};
