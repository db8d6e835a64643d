import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS, selfServiceRequestorSettings } from './demo-data';
import { graphCall, startTestDirectoryEmulator, TEST_OTHER_USER, TEST_USER, type TestDirectoryEmulator } from './test-support';

const EM = '/identityGovernance/entitlementManagement';

/** A complete v1.0 policy body (PUT is a full replacement). */
const policyBody = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: DEMO_IDS.policy,
  displayName: 'Contractors, two-stage approval',
  description: 'Specific users; manager then sponsor approve.',
  allowedTargetScope: 'specificDirectoryUsers',
  specificAllowedTargets: [
    { '@odata.type': '#microsoft.graph.groupMembers', groupId: 'a5d2a7c3-1b4e-4d5a-9a77-1f0c5e0d8b11', description: 'Contractors' },
  ],
  automaticRequestSettings: null,
  expiration: { type: 'afterDuration', duration: 'P90D', endDateTime: null },
  requestorSettings: selfServiceRequestorSettings(),
  requestApprovalSettings: {
    isApprovalRequiredForAdd: true,
    isApprovalRequiredForUpdate: false,
    stages: [
      {
        durationBeforeAutomaticDenial: 'P2D',
        isApproverJustificationRequired: true,
        isEscalationEnabled: false,
        durationBeforeEscalation: 'PT0S',
        primaryApprovers: [{ '@odata.type': '#microsoft.graph.requestorManager', managerLevel: 1 }],
        fallbackPrimaryApprovers: [{ '@odata.type': '#microsoft.graph.singleUser', userId: TEST_OTHER_USER.id, description: 'Bob' }],
        escalationApprovers: [],
        fallbackEscalationApprovers: [],
      },
    ],
  },
  reviewSettings: null,
  questions: [
    {
      '@odata.type': '#microsoft.graph.accessPackageTextInputQuestion',
      text: 'Project code?',
      isRequired: true,
      isSingleLineQuestion: true,
      regexPattern: '^[A-Z]{3}-\\d+$',
    },
  ],
  accessPackage: { id: DEMO_IDS.accessPackage },
  ...overrides,
});

describe('entitlement management and administrative units', () => {
  let t: TestDirectoryEmulator;
  let token: string;
  const call = (path: string, init?: Parameters<typeof graphCall>[3]) => graphCall(t.url, token, path, init);
  const put = (body: unknown, id: string = DEMO_IDS.policy) => call(`${EM}/assignmentPolicies/${id}`, { method: 'PUT', body });

  beforeAll(async () => {
    t = await startTestDirectoryEmulator({
      demoData: true,
      apps: [{ client_id: 'reader', client_secret: 'r', permissions: ['EntitlementManagement.Read.All'] }],
    });
    token = await t.token();
  });
  afterAll(() => t.close());

  it('GET an assignment with $expand and $select', async () => {
    const full = await call(`${EM}/assignments/${DEMO_IDS.assignment}`);
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({ id: DEMO_IDS.assignment, state: 'delivered', status: 'Delivered', expiredDateTime: null });
    expect(full.body).not.toHaveProperty('_target');
    const shaped = await call(
      `${EM}/assignments/${DEMO_IDS.expiredAssignment}?$select=id,state,expiredDateTime&$expand=accessPackage($select=id,displayName),target,assignmentPolicy`,
    );
    expect(Object.keys(shaped.body).sort()).toEqual([
      '@odata.context',
      'accessPackage',
      'assignmentPolicy',
      'expiredDateTime',
      'id',
      'state',
      'target',
    ]);
    expect(shaped.body.state).toBe('expired');
    expect(shaped.body.accessPackage).toEqual({ id: DEMO_IDS.accessPackage, displayName: 'Marketing campaign resources' });
    expect(shaped.body.target).toMatchObject({ objectId: TEST_USER.id, principalName: TEST_USER.userPrincipalName, subjectType: 'user' });
    expect(shaped.body.assignmentPolicy).toMatchObject({ id: DEMO_IDS.policy });
    expect(shaped.body['@odata.context']).toContain(
      '$metadata#identityGovernance/entitlementManagement/assignments(id,state,expiredDateTime)/$entity',
    );
    const badSelect = await call(`${EM}/assignments/${DEMO_IDS.assignment}?$select=colour`);
    expect(badSelect.body.error).toMatchObject({
      code: 'BadRequest',
      message: "Could not find a property named 'colour' on type 'microsoft.graph.accessPackageAssignment'.",
    });
    expect((await call(`${EM}/assignments/${DEMO_IDS.assignment}?$expand=catalog`)).status).toBe(400);
    const missing = await call(`${EM}/assignments/00000000-0000-4000-a000-000000000000`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('Request_ResourceNotFound');
  });

  it('POST assignmentRequests creates an assignment and answers with the request', async () => {
    const created = await call(`${EM}/assignmentRequests`, {
      method: 'POST',
      body: {
        requestType: 'adminAdd',
        assignment: { targetId: TEST_OTHER_USER.id, assignmentPolicyId: DEMO_IDS.policy, accessPackageId: DEMO_IDS.accessPackage },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ requestType: 'adminAdd', state: 'submitted', status: 'Accepted' });
    const list = await call(`${EM}/assignments?$expand=target`);
    const bob = (list.body.value as { target: { objectId: string }; state: string }[]).find(
      (a) => a.target.objectId === TEST_OTHER_USER.id,
    );
    expect(bob?.state).toBe('delivered');
    const stored = await call(`${EM}/assignmentRequests/${created.body.id as string}?$expand=assignment`);
    expect(stored.body).toMatchObject({ state: 'delivered', assignment: { state: 'delivered' } });
    const bad = await call(`${EM}/assignmentRequests`, {
      method: 'POST',
      body: { requestType: 'adminAdd', assignment: { targetId: 'nobody', assignmentPolicyId: DEMO_IDS.policy } },
    });
    expect(bad.body.error.code).toBe('InvalidModel');
  });

  it('PUT a policy replaces it and answers 200 with the stored policy', async () => {
    const reply = await put(policyBody());
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      id: DEMO_IDS.policy,
      displayName: 'Contractors, two-stage approval',
      allowedTargetScope: 'specificDirectoryUsers',
      expiration: { type: 'afterDuration', duration: 'P90D' },
    });
    expect(reply.body.questions[0].id).toEqual(expect.any(String));
    // Not given: the demo's custom extension stage setting stays.
    expect(reply.body.customExtensionStageSettings).toHaveLength(1);
    const read = await call(`${EM}/assignmentPolicies/${DEMO_IDS.policy}?$expand=accessPackage`);
    expect(read.body).toMatchObject({ displayName: 'Contractors, two-stage approval', accessPackage: { id: DEMO_IDS.accessPackage } });

    const attach = await put(
      policyBody({
        customExtensionStageSettings: [{ stage: 'assignmentRequestApproved', customExtension: { id: DEMO_IDS.customExtension } }],
      }),
    );
    expect(attach.body.customExtensionStageSettings).toEqual([
      {
        stage: 'assignmentRequestApproved',
        customExtension: {
          '@odata.type': '#microsoft.graph.accessPackageAssignmentRequestWorkflowExtension',
          id: DEMO_IDS.customExtension,
        },
      },
    ]);
    // Graph clients ask for the stages with a nested expand.
    const nested = await call(
      `${EM}/assignmentPolicies/${DEMO_IDS.policy}?$expand=accessPackage,customExtensionStageSettings($expand=customExtension)`,
    );
    expect(nested.status).toBe(200);
    expect(nested.body.customExtensionStageSettings).toEqual(attach.body.customExtensionStageSettings);
    expect((await call(`${EM}/assignmentPolicies/${DEMO_IDS.policy}?$expand=customExtensionStageSettings($expand=nothing)`)).status).toBe(
      400,
    );
    const cleared = await put(policyBody({ customExtensionStageSettings: [] }));
    expect(cleared.body.customExtensionStageSettings).toEqual([]);

    // The seed's other body forms: accessPackageId instead of accessPackage, accessReviewSettings.
    const { accessPackage: _omit, reviewSettings: _omit2, ...rest } = policyBody();
    const alt = await put({
      ...rest,
      accessPackageId: DEMO_IDS.accessPackage,
      accessReviewSettings: null,
      requestorSettings: { acceptRequests: true, scopeType: 'AllExistingDirectoryMemberUsers', allowedRequestors: [] },
    });
    expect(alt.status).toBe(200);
  });

  it("PUT takes the body of Graph's own update example: no questions, reviewSettings or automaticRequestSettings", async () => {
    const docsExample = {
      id: DEMO_IDS.policy,
      displayName: 'All Users',
      description: 'All users can request for access to the directory.',
      allowedTargetScope: 'allDirectoryUsers',
      specificAllowedTargets: [],
      expiration: { endDateTime: null, duration: null, type: 'noExpiration' },
      requestorSettings: {
        enableTargetsToSelfAddAccess: true,
        enableTargetsToSelfUpdateAccess: false,
        enableTargetsToSelfRemoveAccess: true,
        allowCustomAssignmentSchedule: true,
        enableOnBehalfRequestorsToAddAccess: false,
        enableOnBehalfRequestorsToUpdateAccess: false,
        enableOnBehalfRequestorsToRemoveAccess: false,
        onBehalfRequestors: [],
      },
      requestApprovalSettings: { isApprovalRequiredForAdd: false, isApprovalRequiredForUpdate: false, stages: [] },
      accessPackage: { id: DEMO_IDS.accessPackage },
    };
    const reply = await put(docsExample);
    expect(reply.status).toBe(200);
    // A PUT replaces the policy: what the body leaves out is gone, not kept from before.
    const read = await call(`${EM}/assignmentPolicies/${DEMO_IDS.policy}`);
    expect(read.body).toMatchObject({
      displayName: 'All Users',
      allowedTargetScope: 'allDirectoryUsers',
      questions: [],
      reviewSettings: null,
      automaticRequestSettings: null,
      expiration: { type: 'noExpiration' },
    });
    expect((await put(policyBody())).status).toBe(200);
  });

  it('PUT refuses bad bodies the way Graph does', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [
        policyBody({ colour: 'red' }),
        'RequestBodyRead',
        /^The property 'colour' does not exist on type 'microsoft\.graph\.accessPackageAssignmentPolicy'\./,
      ],
      [
        policyBody({ expiration: { type: 'afterDuration', duration: 'P9D', days: 9 } }),
        'RequestBodyRead',
        /'days' does not exist on type 'microsoft\.graph\.expirationPattern'/,
      ],
      [
        policyBody({ specificAllowedTargets: [{ '@odata.type': '#microsoft.graph.singleUser', userId: 'x', mail: 'a@b' }] }),
        'RequestBodyRead',
        /'mail' does not exist on type 'microsoft\.graph\.singleUser'/,
      ],
      [policyBody({ accessPackage: undefined }), 'ArgumentNullException', /accessPackage/],
      [policyBody({ displayName: undefined }), 'InvalidModel', /^The model is invalid\. displayName: is required/],
      [policyBody({ allowedTargetScope: 'everyone' }), 'InvalidModel', /allowedTargetScope/],
      [
        policyBody({ description: 42 }),
        'InvalidModel',
        /^The model is invalid\. description: Invalid input: expected string, received number/,
      ],
      [
        policyBody({ expiration: { type: 'afterDuration', duration: 'ninety days' } }),
        'InvalidModel',
        /expiration\.duration: expected an ISO 8601 duration/,
      ],
      [policyBody({ requestApprovalSettings: { stages: [{}, {}, {}, {}] } }), 'InvalidModel', /at most 3 approval stages/],
      [
        policyBody({ specificAllowedTargets: [{ '@odata.type': '#microsoft.graph.requestorManager', managerLevel: 7 }] }),
        'InvalidModel',
        /specificAllowedTargets\.0\.managerLevel/,
      ],
      [
        policyBody({ customExtensionStageSettings: [{ stage: 'whenever', customExtension: { id: DEMO_IDS.customExtension } }] }),
        'InvalidModel',
        /customExtensionStageSettings\.0\.stage/,
      ],
      [policyBody({ id: '11111111-2222-4333-8444-555555555555' }), 'InvalidModel', /does not match/],
    ];
    for (const [body, code, message] of cases) {
      const reply = await put(JSON.parse(JSON.stringify(body)));
      expect({ status: reply.status, code: reply.body.error.code }).toEqual({ status: 400, code });
      expect(reply.body.error.message).toMatch(message);
    }
    expect((await put(policyBody({ id: undefined }), '11111111-2222-4333-8444-555555555555')).status).toBe(404);
    const reader = await t.token({
      grant_type: 'client_credentials',
      client_id: 'reader',
      client_secret: 'r',
      scope: 'https://graph.microsoft.com/.default',
    });
    const denied = await graphCall(t.url, reader, `${EM}/assignmentPolicies/${DEMO_IDS.policy}`, { method: 'PUT', body: policyBody() });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('Authorization_RequestDenied');
    expect((await graphCall(t.url, reader, `${EM}/assignments/${DEMO_IDS.assignment}`)).status).toBe(200);
  });

  it('lists and creates access packages and policies', async () => {
    const pkg = await call(`${EM}/accessPackages`, { method: 'POST', body: { displayName: 'Lab access', description: 'Test lab' } });
    expect(pkg.status).toBe(201);
    const policy = await call(`${EM}/assignmentPolicies`, {
      method: 'POST',
      body: policyBody({ id: undefined, accessPackage: { id: pkg.body.id } }),
    });
    expect(policy.status).toBe(201);
    const expanded = await call(`${EM}/accessPackages/${pkg.body.id as string}?$expand=assignmentPolicies($select=id,displayName)`);
    expect(expanded.body.assignmentPolicies).toEqual([{ id: policy.body.id, displayName: 'Contractors, two-stage approval' }]);
    const list = await call(`${EM}/accessPackages?$select=displayName`);
    expect(list.body.value).toEqual([{ displayName: 'Marketing campaign resources' }, { displayName: 'Lab access' }]);
  });

  it('administrative units and scoped role members', async () => {
    const units = await call('/directory/administrativeUnits');
    expect(units.body.value.map((u: { id: string }) => u.id)).toEqual([DEMO_IDS.administrativeUnit]);
    const base = `/directory/administrativeUnits/${DEMO_IDS.administrativeUnit}/scopedRoleMembers`;
    const member = await call(`${base}/${DEMO_IDS.scopedRoleMember}`);
    expect(member.body).toMatchObject({
      id: DEMO_IDS.scopedRoleMember,
      roleId: DEMO_IDS.role,
      administrativeUnitId: DEMO_IDS.administrativeUnit,
      roleMemberInfo: { id: TEST_USER.id, userPrincipalName: TEST_USER.userPrincipalName },
    });
    const selected = await call(`${base}/${DEMO_IDS.scopedRoleMember}?$select=roleId,roleMemberInfo`);
    expect(Object.keys(selected.body).sort()).toEqual(['@odata.context', 'roleId', 'roleMemberInfo']);
    const added = await call(base, { method: 'POST', body: { roleId: DEMO_IDS.role, roleMemberInfo: { id: TEST_OTHER_USER.id } } });
    expect(added.status).toBe(201);
    expect(added.body.roleMemberInfo).toEqual({
      id: TEST_OTHER_USER.id,
      displayName: TEST_OTHER_USER.displayName,
      userPrincipalName: TEST_OTHER_USER.userPrincipalName,
    });
    expect(
      (await call(base, { method: 'POST', body: { roleId: DEMO_IDS.role, roleMemberInfo: { id: TEST_OTHER_USER.id } } })).body.error.code,
    ).toBe('Request_BadRequest');
    expect((await call(base)).body.value).toHaveLength(2);
    const wrongUnit = await call(
      `/directory/administrativeUnits/00000000-0000-4000-a000-000000000000/scopedRoleMembers/${DEMO_IDS.scopedRoleMember}`,
    );
    expect(wrongUnit.status).toBe(404);
    expect(wrongUnit.body.error).toMatchObject({
      code: 'Request_ResourceNotFound',
      message: expect.stringContaining("Resource '00000000-0000-4000-a000-000000000000' does not exist"),
    });
    expect((await call(`${base}/nope`)).status).toBe(404);
  });
});
