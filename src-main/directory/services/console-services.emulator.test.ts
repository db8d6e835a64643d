import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractFailure } from '@shared/contract/result';
import { fullPolicyBody } from '@shared/directory/policy-fixtures';
import { createGraphClient, type GraphClient } from '../client/graph-client';
import { signedInClient } from '../test-support';
import { DEMO_IDS } from '../emulator/demo-data';
import { graphCall, startTestDirectoryEmulator, TEST_OTHER_USER, TEST_USER, type TestDirectoryEmulator } from '../emulator/test-support';
import { createAssignmentsService } from './assignments-service';
import { createPackagesService } from './packages-service';
import { createPeopleService } from './people-service';
import { createPoliciesService } from './policies-service';
import { createRolesService } from './roles-service';

// What the Directory section lists and changes, through the services, against the emulator
// over real HTTP, signed in as its user.

let emu: TestDirectoryEmulator;
let client: () => Promise<GraphClient>;
beforeAll(async () => {
  emu = await startTestDirectoryEmulator({ demoData: true });
  const graph = signedInClient(emu);
  client = async () => graph;
});
afterAll(async () => {
  await emu?.close();
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error as ContractFailure,
  );

describe('the Directory section’s services against the emulator', () => {
  it('lists packages with their catalog and policies, creates a policy and deletes it', async () => {
    const packages = createPackagesService(client);
    const policies = createPoliciesService(client);
    expect((await packages.catalogs()).map((c) => c.displayName)).toEqual(['General']);
    const [demo] = await packages.packages();
    expect(demo).toMatchObject({
      id: DEMO_IDS.accessPackage,
      catalog: { displayName: 'General' },
      assignmentPolicies: [{ id: DEMO_IDS.policy, allowedTargetScope: 'allMemberUsers' }],
    });

    const created = await policies.create({
      policy: fullPolicyBody({ displayName: 'Contractors', accessPackage: { id: DEMO_IDS.accessPackage } }),
    });
    expect(created.id).not.toBe(DEMO_IDS.policy);
    expect((await packages.packages())[0]?.assignmentPolicies?.map((p) => p.displayName)).toEqual([
      'Employees, with manager approval',
      'Contractors',
    ]);
    expect(await policies.remove({ policyId: created.id })).toEqual({ removed: true });
    expect((await packages.packages())[0]?.assignmentPolicies).toHaveLength(1);

    const refused = await failure(policies.remove({ policyId: DEMO_IDS.policy }));
    expect(refused).toMatchObject({
      code: 'invalid_input',
      message: 'The policy cannot be deleted while 1 assignment still uses it; remove them first.',
    });
    const invalid = await failure(policies.create({ policy: { displayName: '' } }));
    expect(invalid?.code).toBe('invalid_input');
    expect((invalid?.details as { problems: { path: string }[] }).problems.map((p) => p.path)).toContain('displayName');
  });

  it('pages a filtered assignment list with only the chosen columns, and refuses a foreign next link', async () => {
    const token = await emu.token();
    for (let i = 0; i < 3; i++) {
      await graphCall(emu.url, token, '/identityGovernance/entitlementManagement/assignmentRequests', {
        method: 'POST',
        body: { requestType: 'adminAdd', assignment: { targetId: TEST_OTHER_USER.id, assignmentPolicyId: DEMO_IDS.policy } },
      });
    }
    const assignments = createAssignmentsService(client);
    const first = await assignments.list({ filter: { state: 'delivered' }, columns: ['target', 'state'], pageSize: 2 });
    expect(first.total).toBe(4);
    expect(first.items).toHaveLength(2);
    expect(Object.keys(first.items[0]!).sort()).toEqual(['id', 'state', 'target']);
    expect(first.items[0]!.target).toMatchObject({ principalName: TEST_USER.userPrincipalName });
    const second = await assignments.list({ filter: {}, columns: ['state'], pageSize: 50, next: first.next! });
    expect(second.items).toHaveLength(2);
    expect(second.next).toBeNull();
    const bobs = await assignments.list({
      filter: { targetObjectId: TEST_OTHER_USER.id },
      columns: ['accessPackage', 'assignmentPolicy'],
      pageSize: 50,
    });
    expect(bobs.items.map((a) => [a.accessPackage?.displayName, a.assignmentPolicy?.displayName])).toEqual(
      Array(3).fill(['Marketing campaign resources', 'Employees, with manager approval']),
    );
    const foreign = await failure(
      assignments.list({
        filter: {},
        columns: ['state'],
        pageSize: 5,
        next: 'https://attacker.example/v1.0/identityGovernance/entitlementManagement/assignments?$skip=5',
      }),
    );
    expect(foreign?.code).toBe('invalid_input');
  });

  it('names the role and the kind of each scoped role member', async () => {
    const roles = createRolesService(client);
    expect((await roles.units()).map((u) => u.displayName)).toEqual(['Seattle District Technical Schools']);
    expect(await roles.members({ administrativeUnitId: DEMO_IDS.administrativeUnit })).toEqual([
      {
        id: DEMO_IDS.scopedRoleMember,
        roleId: DEMO_IDS.role,
        roleName: 'User Administrator',
        memberId: TEST_USER.id,
        memberName: TEST_USER.displayName,
        memberPrincipalName: TEST_USER.userPrincipalName,
        memberKind: 'user',
      },
    ]);
    expect((await failure(roles.members({ administrativeUnitId: '00000000-0000-4000-a000-000000000000' })))?.code).toBe('not_found');
  });

  it('finds people by the start of a name and by id', async () => {
    const people = createPeopleService(client);
    expect(await people.searchUsers({ text: 'bob', limit: 5 })).toEqual([
      { id: TEST_OTHER_USER.id, displayName: TEST_OTHER_USER.displayName, userPrincipalName: TEST_OTHER_USER.userPrincipalName },
    ]);
    expect((await people.searchUsers({ text: '', limit: 5 })).length).toBe(2);
    expect((await people.usersById({ ids: [TEST_USER.id, 'nobody'] })).map((u) => u.userPrincipalName)).toEqual([
      TEST_USER.userPrincipalName,
    ]);
  });
});

describe('scoped role members for an account that may not read the whole directory', () => {
  it('still lists the members, with the role named and the member’s kind unknown', async () => {
    const limited = await startTestDirectoryEmulator({
      demoData: true,
      apps: [
        { client_id: 'roles-only', client_secret: 'r', permissions: ['RoleManagement.Read.Directory', 'AdministrativeUnit.Read.All'] },
      ],
    });
    try {
      const token = await limited.token({
        grant_type: 'client_credentials',
        client_id: 'roles-only',
        client_secret: 'r',
        scope: 'https://graph.microsoft.com/.default',
      });
      const graph = createGraphClient({ baseUrl: `${limited.url}/v1.0`, tokens: { getToken: async () => token } });
      const [member] = await createRolesService(async () => graph).members({ administrativeUnitId: DEMO_IDS.administrativeUnit });
      expect(member).toMatchObject({ roleName: 'User Administrator', memberName: TEST_USER.displayName, memberKind: 'unknown' });
    } finally {
      await limited.close();
    }
  });
});
