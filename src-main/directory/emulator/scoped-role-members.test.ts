import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from './demo-data';
import { DIRECTORY_ROLES } from './directory-roles';
import { graphCall, startTestDirectoryEmulator, TEST_OTHER_USER, TEST_USER, type TestDirectoryEmulator } from './test-support';

// Adding and removing role members of an administrative unit over HTTP, as Graph v1.0 does it.

const UNIT = `/directory/administrativeUnits/${DEMO_IDS.administrativeUnit}/scopedRoleMembers`;
const role = (name: string) => DIRECTORY_ROLES.find((r) => r.displayName === name)!;

describe('POST and DELETE /directory/administrativeUnits/{id}/scopedRoleMembers', () => {
  let t: TestDirectoryEmulator;
  let token: string;
  const call = (path: string, init?: Parameters<typeof graphCall>[3]) => graphCall(t.url, token, path, init);

  beforeAll(async () => {
    t = await startTestDirectoryEmulator({
      demoData: true,
      apps: [{ client_id: 'reader', client_secret: 'r', permissions: ['RoleManagement.Read.Directory'] }],
    });
    token = await t.token();
  });
  afterAll(() => t.close());

  it('stores a new member with the person’s name, lists it, refuses it twice, and deletes it', async () => {
    const helpdesk = role('Helpdesk Administrator');
    const added = await call(UNIT, { method: 'POST', body: { roleId: helpdesk.id, roleMemberInfo: { id: TEST_OTHER_USER.id } } });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      roleId: helpdesk.id,
      administrativeUnitId: DEMO_IDS.administrativeUnit,
      roleMemberInfo: {
        id: TEST_OTHER_USER.id,
        displayName: TEST_OTHER_USER.displayName,
        userPrincipalName: TEST_OTHER_USER.userPrincipalName,
      },
    });
    expect(added.body['@odata.context']).toContain("administrativeUnits('4d7ea995-bc0f-45c0-8c3e-132e93bdc2e4')/scopedRoleMembers/$entity");
    const listed = await call(UNIT);
    expect(listed.body.value.map((m: { roleId: string; roleMemberInfo: { id: string } }) => [m.roleId, m.roleMemberInfo.id])).toEqual([
      [DEMO_IDS.role, TEST_USER.id],
      [helpdesk.id, TEST_OTHER_USER.id],
    ]);
    expect((await call(`${UNIT}/${added.body.id}`)).body).toMatchObject({ id: added.body.id, roleId: helpdesk.id });

    const twice = await call(UNIT, { method: 'POST', body: { roleId: helpdesk.id, roleMemberInfo: { id: TEST_OTHER_USER.id } } });
    expect(twice.status).toBe(400);
    expect(twice.body.error).toMatchObject({
      code: 'Request_BadRequest',
      message: 'A conflicting object with one or more of the specified property values is present in the directory.',
    });
    expect(twice.body.error.innerError['request-id']).toMatch(/^[0-9a-f-]{36}$/);

    const removed = await call(`${UNIT}/${added.body.id}`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect((await call(`${UNIT}/${added.body.id}`)).status).toBe(404);
    expect((await call(UNIT)).body.value).toHaveLength(1);
    const again = await call(`${UNIT}/${added.body.id}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('Request_ResourceNotFound');
  });

  it('refuses a role a unit cannot scope, a person nobody is, and a unit that does not exist', async () => {
    const global = await call(UNIT, {
      method: 'POST',
      body: { roleId: role('Global Administrator').id, roleMemberInfo: { id: TEST_OTHER_USER.id } },
    });
    expect(global.status).toBe(400);
    expect(global.body.error.message).toContain('is not supported for scoped role assignment on an administrative unit');
    const nobody = await call(UNIT, {
      method: 'POST',
      body: { roleId: role('Password Administrator').id, roleMemberInfo: { id: '0f0f0f0f-0000-4000-a000-000000000000' } },
    });
    expect(nobody.status).toBe(404);
    expect(nobody.body.error.message).toContain("Resource '0f0f0f0f-0000-4000-a000-000000000000' does not exist");
    const noUnit = await call('/directory/administrativeUnits/0e0e0e0e-0000-4000-a000-000000000000/scopedRoleMembers', {
      method: 'POST',
      body: { roleId: role('Password Administrator').id, roleMemberInfo: { id: TEST_OTHER_USER.id } },
    });
    expect(noUnit.status).toBe(404);
    expect((await call(UNIT)).body.value).toHaveLength(1);
  });

  it('takes RoleManagement.ReadWrite.Directory to write, while reading needs only Read', async () => {
    const reader = await t.token({
      grant_type: 'client_credentials',
      client_id: 'reader',
      client_secret: 'r',
      scope: 'https://graph.microsoft.com/.default',
    });
    expect((await graphCall(t.url, reader, UNIT)).status).toBe(200);
    const refused = await graphCall(t.url, reader, UNIT, {
      method: 'POST',
      body: { roleId: role('Helpdesk Administrator').id, roleMemberInfo: { id: TEST_OTHER_USER.id } },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('Authorization_RequestDenied');
    expect((await graphCall(t.url, reader, `${UNIT}/${DEMO_IDS.scopedRoleMember}`, { method: 'DELETE' })).status).toBe(403);
  });
});
