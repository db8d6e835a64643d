import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from './demo-data';
import { DIRECTORY_ROLES } from './directory-roles';
import { guidFrom } from './principals';
import {
  graphCall,
  startTestDirectoryEmulator,
  TEST_CLIENT_ID,
  TEST_OTHER_USER,
  TEST_USER,
  type TestDirectoryEmulator,
} from './test-support';

const EM = '/identityGovernance/entitlementManagement';

describe('lists the console reads: filtered assignments, roles, people', () => {
  let t: TestDirectoryEmulator;
  let token: string;
  const call = (path: string, init?: Parameters<typeof graphCall>[3]) => graphCall(t.url, token, path, init);

  beforeAll(async () => {
    t = await startTestDirectoryEmulator({ demoData: true });
    token = await t.token();
    // Two more delivered assignments, for bob, under the demo policy.
    for (let i = 0; i < 2; i++) {
      const made = await call(`${EM}/assignmentRequests`, {
        method: 'POST',
        body: {
          requestType: 'adminAdd',
          assignment: { targetId: TEST_OTHER_USER.id, assignmentPolicyId: DEMO_IDS.policy, accessPackageId: DEMO_IDS.accessPackage },
        },
      });
      expect(made.status).toBe(201);
    }
  });
  afterAll(() => t.close());

  it('filters assignments by state, policy and target, counts them and pages with a next link', async () => {
    const delivered = await call(`${EM}/assignments?$filter=${encodeURIComponent("state eq 'delivered'")}&$count=true`);
    expect(delivered.body['@odata.count']).toBe(3);
    expect(delivered.body.value.every((a: { state: string }) => a.state === 'delivered')).toBe(true);
    const bobs = await call(
      `${EM}/assignments?$filter=${encodeURIComponent(`target/objectId eq '${TEST_OTHER_USER.id}' and assignmentPolicy/id eq '${DEMO_IDS.policy}'`)}&$expand=target`,
    );
    expect(bobs.body.value.map((a: { target: { principalName: string } }) => a.target.principalName)).toEqual([
      TEST_OTHER_USER.userPrincipalName,
      TEST_OTHER_USER.userPrincipalName,
    ]);
    const first = await call(`${EM}/assignments?$top=2&$count=true`);
    expect(first.body.value).toHaveLength(2);
    expect(first.body['@odata.count']).toBe(4);
    const second = await call(first.body['@odata.nextLink'] as string);
    expect(second.body.value).toHaveLength(2);
    expect(second.body['@odata.nextLink']).toBeUndefined();
    const wrong = await call(`${EM}/assignments?$filter=${encodeURIComponent("colour eq 'red'")}`);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toBe("Could not find a property named 'colour' on type 'microsoft.graph.accessPackageAssignment'.");
  });

  it('deletes a policy nobody holds access through, and keeps one that is in use', async () => {
    const demo = (await call(`${EM}/assignmentPolicies/${DEMO_IDS.policy}?$expand=accessPackage`)).body;
    const { id: _id, createdDateTime: _c, modifiedDateTime: _m, '@odata.context': _ctx, ...body } = demo;
    const copy = await call(`${EM}/assignmentPolicies`, {
      method: 'POST',
      body: { ...body, displayName: 'Copy to delete', accessPackage: { id: DEMO_IDS.accessPackage } },
    });
    expect(copy.status).toBe(201);
    expect((await call(`${EM}/assignmentPolicies/${copy.body.id as string}`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(`${EM}/assignmentPolicies/${copy.body.id as string}`)).status).toBe(404);
    const inUse = await call(`${EM}/assignmentPolicies/${DEMO_IDS.policy}`, { method: 'DELETE' });
    expect(inUse.status).toBe(400);
    expect(inUse.body.error.message).toBe('The policy cannot be deleted while 3 assignments still use it; remove them first.');
    expect((await call(`${EM}/assignmentPolicies/${DEMO_IDS.policy}`)).status).toBe(200);
  });

  it('refuses a policy whose single-user approver is not in the directory, naming where the id is', async () => {
    const demo = (await call(`${EM}/assignmentPolicies/${DEMO_IDS.policy}?$expand=accessPackage`)).body;
    const { createdDateTime: _c, modifiedDateTime: _m, '@odata.context': _ctx, ...body } = demo;
    const stage = {
      ...body.requestApprovalSettings.stages[0],
      primaryApprovers: [{ '@odata.type': '#microsoft.graph.singleUser', userId: '0f0f0f0f-0000-4000-a000-000000000000' }],
    };
    const refused = await call(`${EM}/assignmentPolicies/${DEMO_IDS.policy}`, {
      method: 'PUT',
      body: {
        ...body,
        accessPackage: { id: DEMO_IDS.accessPackage },
        requestApprovalSettings: { ...body.requestApprovalSettings, stages: [stage] },
      },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'InvalidModel',
      message:
        "The model is invalid. requestApprovalSettings.stages.0.primaryApprovers.0.userId: no user '0f0f0f0f-0000-4000-a000-000000000000' in the directory",
    });
  });

  it('lists directory roles, so a scoped role member’s roleId has a name', async () => {
    const roles = await call('/directoryRoles?$select=id,displayName');
    expect(roles.body.value).toContainEqual({ id: DEMO_IDS.role, displayName: 'User Administrator' });
    expect(roles.body.value).toHaveLength(DIRECTORY_ROLES.length);
    expect((await call(`/directoryRoles/${DEMO_IDS.role}`)).body).toMatchObject({
      displayName: 'User Administrator',
      roleTemplateId: 'fe930be7-5e62-47db-91af-98c3a49a38b1',
    });
    expect((await call('/directoryRoles/00000000-0000-4000-a000-000000000000')).status).toBe(404);
    const unknownRole = await call(`/directory/administrativeUnits/${DEMO_IDS.administrativeUnit}/scopedRoleMembers`, {
      method: 'POST',
      body: { roleId: '00000000-0000-4000-a000-000000000000', roleMemberInfo: { id: TEST_OTHER_USER.id } },
    });
    expect(unknownRole.status).toBe(400);
  });

  it('lists the built-in role definitions by template id, with $filter and $select', async () => {
    const all = await call('/roleManagement/directory/roleDefinitions?$select=id,displayName,isBuiltIn');
    expect(all.status).toBe(200);
    expect(all.body.value).toHaveLength(DIRECTORY_ROLES.length);
    expect(all.body.value).toContainEqual({
      id: 'fe930be7-5e62-47db-91af-98c3a49a38b1',
      displayName: 'User Administrator',
      isBuiltIn: true,
    });
    const filtered = await call(
      `/roleManagement/directory/roleDefinitions?$filter=${encodeURIComponent("displayName eq 'Helpdesk Administrator'")}`,
    );
    expect(filtered.body.value.map((r: { templateId: string }) => r.templateId)).toEqual(['729827e3-9c14-49f7-bb1b-9608f156bbb8']);
    expect((await call('/roleManagement/directory/roleDefinitions/fe930be7-5e62-47db-91af-98c3a49a38b1')).body).toMatchObject({
      displayName: 'User Administrator',
      isEnabled: true,
      resourceScopes: ['/'],
    });
    expect((await call('/roleManagement/directory/roleDefinitions/00000000-0000-4000-a000-000000000000')).status).toBe(404);
    expect((await call(`/roleManagement/directory/roleDefinitions?$filter=${encodeURIComponent("rolePermissions eq 'x'")}`)).status).toBe(
      400,
    );
  });

  it('finds users by the start of a name and tells object kinds apart with getByIds', async () => {
    const found = await call(
      `/users?$filter=${encodeURIComponent("startswith(displayName,'bo') or startswith(userPrincipalName,'bo')")}&$select=id,userPrincipalName`,
    );
    expect(found.body.value).toEqual([{ id: TEST_OTHER_USER.id, userPrincipalName: TEST_OTHER_USER.userPrincipalName }]);
    const app = { servicePrincipalId: guidFrom(`sp:${TEST_CLIENT_ID}`), displayName: 'Relay Console tests' };
    const objects = await call('/directoryObjects/getByIds', {
      method: 'POST',
      body: { ids: [TEST_USER.id, app.servicePrincipalId, DEMO_IDS.role, 'no-such-id'] },
    });
    expect(objects.body.value.map((o: Record<string, string>) => [o['@odata.type'], o.displayName])).toEqual([
      ['#microsoft.graph.user', TEST_USER.displayName],
      ['#microsoft.graph.servicePrincipal', app.displayName],
      ['#microsoft.graph.directoryRole', 'User Administrator'],
    ]);
    expect((await call('/directoryObjects/getByIds', { method: 'POST', body: { ids: 'x' } })).status).toBe(400);
    expect((await call('/me')).status).toBe(400);
    expect((await call(`/users/${TEST_USER.userPrincipalName}`)).body).toMatchObject({
      id: TEST_USER.id,
      displayName: TEST_USER.displayName,
    });
  });
});
