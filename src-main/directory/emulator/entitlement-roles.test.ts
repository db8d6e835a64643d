import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS, selfServiceRequestorSettings } from './demo-data';
import { CATALOG_OWNER_ROLE } from './entitlement-access';
import {
  graphCall,
  startTestDirectoryEmulator,
  TEST_OTHER_USER,
  TEST_USER,
  userTokenForm,
  type TestDirectoryEmulator,
} from './test-support';

// Delegated entitlement management writes need a role of the signed-in user besides the
// delegated permission, as on Graph: Identity Governance Administrator or Global Administrator
// anywhere, Catalog owner in that catalog. Application tokens keep the permission check alone.
const EM = '/identityGovernance/entitlementManagement';
const ROLE_ASSIGNMENTS = '/roleManagement/entitlementManagement/roleAssignments';
const CAROL = {
  userPrincipalName: 'carol@emulator.test',
  password: 'carol-password',
  displayName: 'Carol Admin',
  roles: ['Global Administrator' as const],
};

/** A full policy body for the demo package (PUT replaces the whole policy). */
const policy = (displayName: string): Record<string, unknown> => ({
  displayName,
  description: 'Any member user may request.',
  allowedTargetScope: 'allMemberUsers',
  specificAllowedTargets: [],
  automaticRequestSettings: null,
  expiration: { type: 'noExpiration', duration: null, endDateTime: null },
  requestorSettings: selfServiceRequestorSettings(),
  requestApprovalSettings: null,
  reviewSettings: null,
  questions: [],
  accessPackage: { id: DEMO_IDS.accessPackage },
});

let t: TestDirectoryEmulator;
let appToken: string;
let alice: string;
let bob: string;
let carol: string;
const as = (token: string, path: string, init?: Parameters<typeof graphCall>[3]) => graphCall(t.url, token, path, init);
const putPolicy = (token: string, displayName: string) =>
  as(token, `${EM}/assignmentPolicies/${DEMO_IDS.policy}`, { method: 'PUT', body: policy(displayName) });
const storedName = async () =>
  (await as(appToken, `${EM}/assignmentPolicies/${DEMO_IDS.policy}?$select=displayName`)).body.displayName as string;

function expectDenied(reply: Awaited<ReturnType<typeof graphCall>>): void {
  expect(reply.status).toBe(403);
  expect(reply.body.error.code).toBe('Authorization_RequestDenied');
  expect(reply.body.error.message).toMatch(/^Insufficient privileges to complete the operation\. /);
}

beforeAll(async () => {
  t = await startTestDirectoryEmulator({ demoData: true, users: [CAROL] });
  appToken = await t.token();
  alice = await t.token(userTokenForm(TEST_USER));
  bob = await t.token(userTokenForm(TEST_OTHER_USER));
  carol = await t.token(userTokenForm(CAROL));
});
afterAll(() => t.close());

describe('delegated entitlement management writes', () => {
  it('a user with no role cannot PUT a policy (403), and nothing is stored', async () => {
    const before = await storedName();
    expectDenied(await putPolicy(bob, 'Changed by bob'));
    expect(await storedName()).toBe(before);
    // Reading needs no role.
    expect((await as(bob, `${EM}/assignmentPolicies/${DEMO_IDS.policy}`)).status).toBe(200);
  });

  it('nor create packages and policies, delete a policy, or add someone else', async () => {
    expectDenied(
      await as(bob, `${EM}/accessPackages`, { method: 'POST', body: { displayName: 'Bob package', catalog: { id: DEMO_IDS.catalog } } }),
    );
    expectDenied(await as(bob, `${EM}/assignmentPolicies`, { method: 'POST', body: policy('Bob policy') }));
    expectDenied(await as(bob, `${EM}/assignmentPolicies/${DEMO_IDS.policy}`, { method: 'DELETE' }));
    expectDenied(
      await as(bob, `${EM}/assignmentRequests`, {
        method: 'POST',
        body: { requestType: 'adminAdd', assignment: { targetId: TEST_USER.id, assignmentPolicyId: DEMO_IDS.policy } },
      }),
    );
    expectDenied(
      await as(bob, `${EM}/assignmentRequests`, {
        method: 'POST',
        body: { requestType: 'userAdd', assignment: { targetId: TEST_USER.id, assignmentPolicyId: DEMO_IDS.policy } },
      }),
    );
  });

  it('a user may request access for themselves without a role', async () => {
    const own = await as(bob, `${EM}/assignmentRequests`, {
      method: 'POST',
      body: { requestType: 'userAdd', assignment: { assignmentPolicyId: DEMO_IDS.policy } },
    });
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({ requestType: 'userAdd' });
  });

  it('an Identity Governance Administrator or a Global Administrator can', async () => {
    expect((await putPolicy(alice, 'Changed by alice')).status).toBe(200);
    expect(await storedName()).toBe('Changed by alice');
    expect((await putPolicy(carol, 'Changed by carol')).status).toBe(200);
    expect(await storedName()).toBe('Changed by carol');
  });

  it('an application token is judged by its permissions alone', async () => {
    expect((await putPolicy(appToken, 'Changed by the app')).status).toBe(200);
  });

  it('a Catalog owner can write in their catalog, until the role is removed', async () => {
    const grant = {
      principalId: TEST_OTHER_USER.id,
      roleDefinitionId: CATALOG_OWNER_ROLE,
      appScopeId: `/AccessPackageCatalog/${DEMO_IDS.catalog}`,
    };
    expectDenied(await as(bob, ROLE_ASSIGNMENTS, { method: 'POST', body: grant }));
    const made = await as(alice, ROLE_ASSIGNMENTS, { method: 'POST', body: grant });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject(grant);
    const listed = await as(appToken, `${ROLE_ASSIGNMENTS}?$filter=${encodeURIComponent(`principalId eq '${TEST_OTHER_USER.id}'`)}`);
    expect(listed.body.value).toEqual([expect.objectContaining({ id: made.body.id, roleDefinitionId: CATALOG_OWNER_ROLE })]);

    expect((await putPolicy(bob, 'Changed by bob, catalog owner')).status).toBe(200);
    expect(await storedName()).toBe('Changed by bob, catalog owner');

    expect((await as(alice, `${ROLE_ASSIGNMENTS}/${made.body.id as string}`, { method: 'DELETE' })).status).toBe(204);
    expectDenied(await putPolicy(bob, 'Changed by bob again'));
  });

  it('refuses a role assignment that is not Catalog owner of an existing catalog', async () => {
    const base = {
      principalId: TEST_OTHER_USER.id,
      roleDefinitionId: CATALOG_OWNER_ROLE,
      appScopeId: `/AccessPackageCatalog/${DEMO_IDS.catalog}`,
    };
    for (const body of [
      { ...base, roleDefinitionId: '00000000-0000-4000-a000-000000000000' },
      { ...base, appScopeId: '/AccessPackageCatalog/nope' },
      { ...base, principalId: 'nobody' },
    ]) {
      const reply = await as(appToken, ROLE_ASSIGNMENTS, { method: 'POST', body });
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('InvalidModel');
    }
    expect((await as(appToken, ROLE_ASSIGNMENTS, { method: 'POST', body: { ...base, extra: 1 } })).body.error.code).toBe('RequestBodyRead');
  });
});
