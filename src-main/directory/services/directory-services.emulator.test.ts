import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractFailure } from '@shared/contract/result';
import type { GraphClient } from '../client/graph-client';
import { signedInClient } from '../test-support';
import { DEMO_IDS } from '../emulator/demo-data';
import { guidFrom } from '../emulator/principals';
import { startTestDirectoryEmulator, TEST_OTHER_USER, type TestDirectoryEmulator } from '../emulator/test-support';
import { createAssignmentsService } from './assignments-service';
import { createPoliciesService } from './policies-service';
import { fullPolicyBody, graphDocsUpdateBody } from '@shared/directory/policy-fixtures';
import { createRolesService } from './roles-service';

// The three services against the Graph emulator over real HTTP, signed in as its user.

let emu: TestDirectoryEmulator;
let waits: number[];
let client: () => Promise<GraphClient>;
beforeAll(async () => {
  emu = await startTestDirectoryEmulator({ demoData: true });
  waits = [];
  const graph = signedInClient(emu, { sleep: async (ms) => void waits.push(ms) });
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

describe('directory services against the emulator', () => {
  it('round-trips a policy with every field kind, then removes its custom extension stages with []', async () => {
    const policies = createPoliciesService(client);
    const before = await policies.get({ policyId: DEMO_IDS.policy });
    expect(before.id).toBe(DEMO_IDS.policy);
    expect(before.accessPackage?.id).toBe(DEMO_IDS.accessPackage);

    const body = fullPolicyBody({
      id: DEMO_IDS.policy,
      accessPackage: { id: DEMO_IDS.accessPackage },
      customExtensionStageSettings: [
        {
          stage: 'assignmentRequestCreated',
          customExtension: {
            '@odata.type': '#microsoft.graph.accessPackageAssignmentRequestWorkflowExtension',
            id: DEMO_IDS.customExtension,
          },
        },
        { stage: 'assignmentRequestApproved', customExtension: { id: DEMO_IDS.customExtension } },
      ],
    });
    expect(await policies.validate({ policy: body })).toEqual({ problems: [] });
    const saved = await policies.update({ policyId: DEMO_IDS.policy, policy: body });
    expect(saved).toMatchObject({ id: DEMO_IDS.policy, displayName: body.displayName });

    const read = await policies.get({ policyId: DEMO_IDS.policy });
    expect(read).toMatchObject({
      displayName: body.displayName,
      description: body.description,
      allowedTargetScope: 'specificDirectoryUsers',
      specificAllowedTargets: body.specificAllowedTargets,
      expiration: { type: 'afterDuration', duration: 'P365D' },
      requestorSettings: body.requestorSettings,
      requestApprovalSettings: body.requestApprovalSettings,
      reviewSettings: body.reviewSettings,
      accessPackage: { id: DEMO_IDS.accessPackage },
    });
    // Approvers of each kind survive, in order.
    const kinds = (read.requestApprovalSettings as { stages: Array<Record<string, Array<{ '@odata.type': string }>>> }).stages.flatMap(
      (stage) =>
        ['primaryApprovers', 'fallbackPrimaryApprovers', 'escalationApprovers', 'fallbackEscalationApprovers'].flatMap((key) =>
          stage[key]!.map((a) => a['@odata.type']),
        ),
    );
    expect(kinds).toEqual([
      '#microsoft.graph.requestorManager',
      '#microsoft.graph.singleUser',
      '#microsoft.graph.groupMembers',
      '#microsoft.graph.internalSponsors',
      '#microsoft.graph.singleUser',
      '#microsoft.graph.externalSponsors',
    ]);
    // Both question kinds, with the ids Graph gave them.
    const questions = read.questions as Array<Record<string, unknown>>;
    expect(questions.map((q) => q['@odata.type'])).toEqual([
      '#microsoft.graph.accessPackageTextInputQuestion',
      '#microsoft.graph.accessPackageMultipleChoiceQuestion',
    ]);
    expect(questions[0]).toMatchObject({
      text: 'Cost centre',
      regexPattern: '^[0-9]{4}$',
      isSingleLineQuestion: true,
      id: expect.any(String),
    });
    expect(questions[1]).toMatchObject({
      isMultipleSelectionAllowed: true,
      choices:
        body.questions?.[1]?.['@odata.type'] === '#microsoft.graph.accessPackageMultipleChoiceQuestion' ? body.questions[1].choices : [],
    });
    expect((read.customExtensionStageSettings ?? []).map((s) => [s.stage, (s.customExtension as { id: string }).id])).toEqual([
      ['assignmentRequestCreated', DEMO_IDS.customExtension],
      ['assignmentRequestApproved', DEMO_IDS.customExtension],
    ]);

    // Read, edit, save back: the fetched policy goes through as it came (read-only parts dropped).
    const edited = { ...read, displayName: 'Sales contractors (EMEA)', customExtensionStageSettings: [] };
    expect((await policies.validate({ policy: edited })).problems).toEqual([]);
    await policies.update({ policyId: DEMO_IDS.policy, policy: edited });
    const after = await policies.get({ policyId: DEMO_IDS.policy });
    expect(after.displayName).toBe('Sales contractors (EMEA)');
    expect(after.customExtensionStageSettings ?? []).toEqual([]);
    expect(after.questions).toHaveLength(2);
  });

  it('saves Microsoft’s documented update body, which has no reviewSettings or questions, as Graph does', async () => {
    const policies = createPoliciesService(client);
    const created = await policies.create({
      policy: fullPolicyBody({
        displayName: 'To be replaced',
        accessPackage: { id: DEMO_IDS.accessPackage },
        customExtensionStageSettings: [],
      }),
    });
    const documented = graphDocsUpdateBody({ policyId: created.id, accessPackageId: DEMO_IDS.accessPackage, userId: emu.user.id });
    expect((await policies.validate({ policy: documented })).problems).toEqual([]);
    const saved = await policies.update({ policyId: created.id, policy: documented });
    expect(saved).toMatchObject({ id: created.id, displayName: 'All Users' });
    // A PUT replaces the whole policy: what the body leaves out, the policy no longer has.
    const read = await policies.get({ policyId: created.id });
    expect(read).toMatchObject({ displayName: 'All Users', allowedTargetScope: 'allDirectoryUsers', reviewSettings: null, questions: [] });
    expect(read.requestApprovalSettings).toMatchObject({
      isApprovalRequiredForAdd: true,
      stages: [expect.objectContaining({ durationBeforeAutomaticDenial: 'P2D' })],
    });
    await policies.remove({ policyId: created.id });
  });

  it('answers Graph refusals with the Graph code: unknown policy, unknown package, another package', async () => {
    const policies = createPoliciesService(client);
    const missing = await failure(policies.get({ policyId: '00000000-0000-4000-8000-000000000001' }));
    expect(missing).toMatchObject({ code: 'not_found', details: { graph: { status: 404, code: 'Request_ResourceNotFound' } } });

    const unknownPackage = await failure(
      policies.update({
        policyId: DEMO_IDS.policy,
        policy: fullPolicyBody({ accessPackage: { id: '00000000-0000-4000-8000-0000000000aa' } }),
      }),
    );
    expect(unknownPackage).toMatchObject({ code: 'not_found', details: { graph: { code: 'Request_ResourceNotFound' } } });

    const created = await (
      await client()
    ).request<{ id: string }>({
      method: 'POST',
      path: '/identityGovernance/entitlementManagement/accessPackages',
      body: { displayName: 'Another package', description: 'for a mismatch' },
    });
    const moved = await failure(
      policies.update({ policyId: DEMO_IDS.policy, policy: fullPolicyBody({ accessPackage: { id: created.body.id } }) }),
    );
    expect(moved).toMatchObject({ code: 'invalid_input', details: { graph: { status: 400, code: 'InvalidModel' } } });
    expect(moved?.message).toContain('access package');
  });

  it('reads an assignment with $expand and $select', async () => {
    const assignments = createAssignmentsService(client);
    const full = await assignments.get({ assignmentId: DEMO_IDS.assignment });
    expect(full).toMatchObject({ id: DEMO_IDS.assignment, state: 'delivered' });
    expect(full).not.toHaveProperty('target');

    const narrowed = await assignments.get({
      assignmentId: DEMO_IDS.assignment,
      expand: ['accessPackage', 'target', 'assignmentPolicy'],
      select: ['state', 'status'],
    });
    expect(
      Object.keys(narrowed)
        .filter((key) => !key.startsWith('@odata.'))
        .sort(),
    ).toEqual(['accessPackage', 'assignmentPolicy', 'id', 'state', 'status', 'target']);
    expect(narrowed.accessPackage?.id).toBe(DEMO_IDS.accessPackage);
    expect(narrowed.assignmentPolicy?.id).toBe(DEMO_IDS.policy);
    expect(narrowed.target).toMatchObject({ objectId: emu.user.id });

    const expired = await assignments.get({ assignmentId: DEMO_IDS.expiredAssignment, select: ['state', 'expiredDateTime'] });
    expect(expired).toMatchObject({ state: 'expired', expiredDateTime: expect.stringMatching(/Z$/) });

    const badSelect = await failure(assignments.get({ assignmentId: DEMO_IDS.assignment, select: ['colour'] }));
    expect(badSelect).toMatchObject({ code: 'invalid_input', details: { graph: { status: 400 } } });
  });

  it('reads a scoped role member with $select, and names a missing one', async () => {
    const roles = createRolesService(client);
    const member = await roles.get({ administrativeUnitId: DEMO_IDS.administrativeUnit, membershipId: DEMO_IDS.scopedRoleMember });
    expect(member).toMatchObject({
      id: DEMO_IDS.scopedRoleMember,
      roleId: DEMO_IDS.role,
      administrativeUnitId: DEMO_IDS.administrativeUnit,
    });
    expect(member.roleMemberInfo).toMatchObject({ id: emu.user.id, userPrincipalName: emu.user.userPrincipalName });

    const narrowed = await roles.get({
      administrativeUnitId: DEMO_IDS.administrativeUnit,
      membershipId: DEMO_IDS.scopedRoleMember,
      select: ['roleMemberInfo'],
    });
    expect(
      Object.keys(narrowed)
        .filter((key) => !key.startsWith('@odata.'))
        .sort(),
    ).toEqual(['id', 'roleMemberInfo']);

    const missing = await failure(roles.get({ administrativeUnitId: DEMO_IDS.administrativeUnit, membershipId: 'nobody' }));
    expect(missing).toMatchObject({ code: 'not_found', details: { graph: { code: 'Request_ResourceNotFound' } } });
  });

  it('lists the roles a unit can scope, adds a member, tells why a second add is refused, and removes it', async () => {
    const roles = createRolesService(client);
    const scopable = await roles.scopableRoles();
    expect(scopable.map((r) => r.displayName)).toEqual([
      'Authentication Administrator',
      'Groups Administrator',
      'Helpdesk Administrator',
      'License Administrator',
      'Password Administrator',
      'User Administrator',
    ]);
    expect(scopable.find((r) => r.displayName === 'Helpdesk Administrator')?.description).toContain('reset passwords');
    const helpdesk = scopable.find((r) => r.displayName === 'Helpdesk Administrator')!;
    const unit = DEMO_IDS.administrativeUnit;

    const added = await roles.addMember({ administrativeUnitId: unit, roleId: helpdesk.id, memberId: TEST_OTHER_USER.id });
    expect(added).toMatchObject({
      roleId: helpdesk.id,
      roleName: 'Helpdesk Administrator',
      memberId: TEST_OTHER_USER.id,
      memberName: TEST_OTHER_USER.displayName,
      memberPrincipalName: TEST_OTHER_USER.userPrincipalName,
      memberKind: 'user',
    });
    const listed = await roles.members({ administrativeUnitId: unit });
    expect(listed.find((m) => m.id === added.id)).toEqual(added);

    const twice = await failure(roles.addMember({ administrativeUnitId: unit, roleId: helpdesk.id, memberId: TEST_OTHER_USER.id }));
    expect(twice).toMatchObject({
      code: 'invalid_input',
      details: { refusal: 'duplicate', graph: { status: 400, code: 'Request_BadRequest' } },
    });
    const nobody = await failure(
      roles.addMember({ administrativeUnitId: unit, roleId: helpdesk.id, memberId: '0f0f0f0f-0000-4000-a000-000000000000' }),
    );
    expect(nobody).toMatchObject({ code: 'not_found', details: { refusal: 'unknownPerson' } });
    const globalAdmin = await failure(
      roles.addMember({
        administrativeUnitId: unit,
        roleId: guidFrom('role:62e90394-69f5-4237-9190-012177145e10'),
        memberId: TEST_OTHER_USER.id,
      }),
    );
    expect(globalAdmin).toMatchObject({ code: 'invalid_input', details: { refusal: 'notScopable' } });

    expect(await roles.removeMember({ administrativeUnitId: unit, membershipId: added.id })).toEqual({ removed: true });
    expect((await roles.members({ administrativeUnitId: unit })).map((m) => m.id)).toEqual([DEMO_IDS.scopedRoleMember]);
    const gone = await failure(roles.removeMember({ administrativeUnitId: unit, membershipId: added.id }));
    expect(gone).toMatchObject({ code: 'not_found', details: { refusal: 'membershipGone' } });
  });

  it('waits out throttling inside a service call', async () => {
    emu.setFaults({ rate_limit_every: 1, retry_after_seconds: 0.25 });
    const roles = createRolesService(client);
    const pending = roles.get({ administrativeUnitId: DEMO_IDS.administrativeUnit, membershipId: DEMO_IDS.scopedRoleMember });
    const throttled = await failure(pending);
    emu.setFaults({});
    // Every try throttled: the default budget of 4 tries waited 3 times, then gave up as unavailable.
    expect(waits.slice(-3)).toEqual([250, 250, 250]);
    expect(throttled).toMatchObject({
      code: 'unavailable',
      details: { graph: { status: 429, code: 'TooManyRequests', retryAfterMs: 250 } },
    });
  });
});
