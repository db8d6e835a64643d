import { describe, expect, it } from 'vitest';
import type { DirectoryRoleInfo, ScopedRoleMemberView } from '@shared/contract/directory';
import type { ContractErrorCode } from '@shared/contract/error-codes';
import { ContractFailure } from '@shared/contract/result';
import { addRefusalSentence, heldMembership, memberNames, personName, removeRefusalSentence, roleChoices } from './scoped-members';

const role = (id: string, displayName: string, description: string | null = `${displayName} can do things.`): DirectoryRoleInfo => ({
  id,
  displayName,
  description,
  roleTemplateId: `t-${id}`,
});
const roles = [
  role('r-user', 'User Administrator'),
  role('r-help', 'Helpdesk Administrator', null),
  role('r-auth', 'Authentication Administrator'),
];
const member = (roleId: string, memberId: string): ScopedRoleMemberView => ({
  id: `${roleId}/${memberId}`,
  roleId,
  roleName: null,
  memberId,
  memberName: null,
  memberPrincipalName: null,
  memberKind: 'user',
});
const members = [member('r-user', 'pat'), member('R-HELP', 'sam')];
const names = { person: 'Pat Lee', role: 'Helpdesk Administrator' };
const refused = (code: ContractErrorCode, refusal?: string) =>
  new ContractFailure(code, 'Graph said no.', refusal ? { refusal, graph: { status: 400 } } : { graph: { status: 400 } });

describe('roleChoices', () => {
  it('sorts roles by name, keeps descriptions, and disables the ones the person holds here', () => {
    expect(roleChoices(roles, members, 'pat')).toEqual([
      {
        value: 'r-auth',
        label: 'Authentication Administrator',
        description: 'Authentication Administrator can do things.',
        disabled: false,
      },
      { value: 'r-help', label: 'Helpdesk Administrator', description: '', disabled: false },
      { value: 'r-user', label: 'User Administrator', description: 'User Administrator can do things.', disabled: true },
    ]);
  });

  it.each([
    ['nobody chosen yet', '', []],
    ['a person with no role here', 'kim', []],
    ['ids in another case', 'SAM', ['r-help']],
  ])('with %s', (_what, memberId, disabled) => {
    expect(
      roleChoices(roles, members, memberId)
        .filter((c) => c.disabled)
        .map((c) => c.value),
    ).toEqual(disabled);
  });
});

describe('heldMembership and personName', () => {
  it('finds the membership of a role and person', () => {
    expect(heldMembership(members, 'r-help', 'sam')?.id).toBe('R-HELP/sam');
    expect(heldMembership(members, 'r-help', 'pat')).toBeUndefined();
  });

  it.each([
    [
      { ...member('r', 'u1'), memberName: 'Pat Lee', roleName: 'Helpdesk Administrator' },
      { person: 'Pat Lee', role: 'Helpdesk Administrator' },
    ],
    [
      { ...member('r', 'u1'), memberPrincipalName: 'pat@x.test' },
      { person: 'pat@x.test', role: 'this role' },
    ],
    [member('r', 'u1'), { person: 'u1', role: 'this role' }],
  ])('memberNames of %j', (row, expected) => {
    expect(memberNames(row)).toEqual(expected);
  });

  it.each([
    [{ id: 'u1', displayName: 'Pat Lee', userPrincipalName: 'pat@x.test' }, 'Pat Lee'],
    [{ id: 'u1', displayName: null, userPrincipalName: 'pat@x.test' }, 'pat@x.test'],
    [{ id: 'u1', displayName: null, userPrincipalName: null }, 'u1'],
  ])('names %j', (user, expected) => {
    expect(personName(user)).toBe(expected);
  });
});

describe('addRefusalSentence', () => {
  it.each([
    ['duplicate', refused('invalid_input', 'duplicate'), 'Pat Lee already has Helpdesk Administrator in this unit.'],
    [
      'not scopable',
      refused('invalid_input', 'notScopable'),
      'Helpdesk Administrator cannot be limited to an administrative unit. Choose a role such as User Administrator or Helpdesk Administrator.',
    ],
    [
      'unknown role',
      refused('invalid_input', 'unknownRole'),
      'Helpdesk Administrator is no longer an active role in this directory. Close this dialog and choose the role again.',
    ],
    ['unknown person', refused('not_found', 'unknownPerson'), 'Pat Lee is no longer in the directory. Choose someone else.'],
    ['unit gone', refused('not_found', 'unitGone'), 'This administrative unit no longer exists: someone deleted it. Choose another unit.'],
    [
      'forbidden',
      refused('forbidden'),
      'You are not allowed to change who holds roles in this unit. It takes a Privileged Role Administrator, and the app needs the RoleManagement.ReadWrite.Directory permission.',
    ],
    ['anything else', refused('unavailable'), 'Helpdesk Administrator could not be given to Pat Lee: Graph said no.'],
    [
      'an unknown refusal word',
      refused('invalid_input', 'sunspots'),
      'Helpdesk Administrator could not be given to Pat Lee: Graph said no.',
    ],
    ['a plain error', new Error('socket closed'), 'Helpdesk Administrator could not be given to Pat Lee: socket closed'],
  ])('%s', (_what, error, sentence) => {
    expect(addRefusalSentence(error, names)).toBe(sentence);
  });
});

describe('removeRefusalSentence', () => {
  it.each([
    [
      'already removed',
      refused('not_found', 'membershipGone'),
      'Pat Lee no longer has Helpdesk Administrator in this unit: it was removed already.',
    ],
    ['unit gone', refused('not_found', 'unitGone'), 'This administrative unit no longer exists: someone deleted it. Choose another unit.'],
    [
      'forbidden',
      refused('forbidden'),
      'You are not allowed to change who holds roles in this unit. It takes a Privileged Role Administrator, and the app needs the RoleManagement.ReadWrite.Directory permission.',
    ],
    ['anything else', refused('unavailable'), 'Helpdesk Administrator could not be taken from Pat Lee: Graph said no.'],
  ])('%s', (_what, error, sentence) => {
    expect(removeRefusalSentence(error, names)).toBe(sentence);
  });
});
