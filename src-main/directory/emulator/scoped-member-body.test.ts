import { describe, expect, it } from 'vitest';
import { DIRECTORY_ROLES, findRole } from './directory-roles';
import { GraphError } from './graph-error';
import type { UserPrincipal } from './principals';
import { checkScopedMemberBody } from './scoped-member-body';

const pat: UserPrincipal = {
  id: '0a1b2c3d-0000-4000-a000-00000000a7a7',
  userPrincipalName: 'pat.lee@contoso.test',
  displayName: 'Pat Lee',
  password: 'x',
  roles: [],
};
const byName = (name: string) => DIRECTORY_ROLES.find((r) => r.displayName === name)!;
const helpdesk = byName('Helpdesk Administrator');
const globalAdmin = byName('Global Administrator');
const nobody = '0f0f0f0f-0000-4000-a000-000000000000';
const lookups = {
  role: findRole,
  user: (id: string) => (id === pat.id ? pat : undefined),
  members: [{ id: 'm1', roleId: helpdesk.id, roleMemberInfo: { id: pat.id } }],
};

const refusal = (body: Record<string, unknown>) => {
  try {
    checkScopedMemberBody(body, lookups);
  } catch (error) {
    if (error instanceof GraphError) return { status: error.status, code: error.code, message: error.message };
    throw error;
  }
  return null;
};

describe('checkScopedMemberBody', () => {
  it.each([
    [
      'an unknown property',
      { roleId: helpdesk.id, roleMemberInfo: { id: pat.id }, colour: 'red' },
      400,
      'RequestBodyRead',
      "The property 'colour' does not exist on type 'microsoft.graph.scopedRoleMembership'",
    ],
    ['no roleId', { roleMemberInfo: { id: pat.id } }, 400, 'Request_BadRequest', "Invalid value specified for property 'roleId'"],
    [
      'a roleId that is not an id',
      { roleId: 'Helpdesk Administrator', roleMemberInfo: { id: pat.id } },
      400,
      'Request_BadRequest',
      "Invalid value specified for property 'roleId'",
    ],
    [
      'a role nobody activated',
      { roleId: nobody, roleMemberInfo: { id: pat.id } },
      400,
      'Request_BadRequest',
      "Invalid value specified for property 'roleId'",
    ],
    [
      'a role template id instead of the role’s object id',
      { roleId: helpdesk.roleTemplateId, roleMemberInfo: { id: pat.id } },
      400,
      'Request_BadRequest',
      "Invalid value specified for property 'roleId'",
    ],
    [
      'a role a unit cannot scope',
      { roleId: globalAdmin.id, roleMemberInfo: { id: pat.id } },
      400,
      'Request_BadRequest',
      `Role '${globalAdmin.id}' is not supported for scoped role assignment`,
    ],
    ['no member', { roleId: byName('User Administrator').id }, 400, 'Request_BadRequest', "Invalid object identifier ''."],
    [
      'a member id that is not an id',
      { roleId: byName('User Administrator').id, roleMemberInfo: { id: 'pat' } },
      400,
      'Request_BadRequest',
      "Invalid object identifier 'pat'.",
    ],
    [
      'a member nobody is',
      { roleId: byName('User Administrator').id, roleMemberInfo: { id: nobody } },
      404,
      'Request_ResourceNotFound',
      `Resource '${nobody}' does not exist`,
    ],
    [
      'a person who already has the role here',
      { roleId: helpdesk.id, roleMemberInfo: { id: pat.id } },
      400,
      'Request_BadRequest',
      'A conflicting object with one or more of the specified property values is present in the directory.',
    ],
  ])('refuses %s', (_what, body, status, code, message) => {
    const answer = refusal(body);
    expect(answer).toMatchObject({ status, code });
    expect(answer?.message).toContain(message);
  });

  it('takes a role and a person, ignoring annotations and the read-only properties Graph returns', () => {
    const userAdmin = byName('User Administrator');
    const body = {
      '@odata.type': '#microsoft.graph.scopedRoleMembership',
      id: 'ignored',
      administrativeUnitId: 'ignored',
      roleId: userAdmin.id.toUpperCase(),
      roleMemberInfo: { id: pat.id, displayName: 'Pat' },
    };
    expect(checkScopedMemberBody(body, lookups)).toEqual({ role: userAdmin, user: pat });
  });

  it('offers every scopable role of the emulator, and no tenant-wide one', () => {
    expect(
      DIRECTORY_ROLES.filter((r) => refusal({ roleId: r.id, roleMemberInfo: { id: pat.id } })?.message.includes('not supported')).map(
        (r) => r.displayName,
      ),
    ).toEqual(['Global Administrator', 'Identity Governance Administrator']);
  });
});
