import { afterEach, describe, expect, it } from 'vitest';
import { ContractFailure } from '@shared/contract/result';
import { createGraphClient, type GraphClient } from '../client/graph-client';
import { sendGraphError, sendJson, startRecordingServer, type RecordingHandler, type RecordingServer } from '../client/recording-server';
import { createAssignmentsService } from './assignments-service';
import { contractCodeFor } from './graph-failure';
import { fullPolicyBody } from '@shared/directory/policy-fixtures';
import { createPoliciesService, POLICY_EXPAND } from './policies-service';
import { createRolesService } from './roles-service';

// What each service puts on the wire and how Graph's answers come back, against a recording
// HTTP server (the emulator round trips are in directory-services.emulator.test.ts).

const servers: RecordingServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function graphStub(handler: RecordingHandler): Promise<{ server: RecordingServer; client: () => Promise<GraphClient> }> {
  const server = await startRecordingServer(handler);
  servers.push(server);
  const client = createGraphClient({ baseUrl: `${server.url}/v1.0`, tokens: { getToken: async () => 'tok' } });
  return { server, client: async () => client };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error as ContractFailure,
  );

describe('directory services on the wire', () => {
  it('policies.get expands the package and the custom extension stages', async () => {
    const { server, client } = await graphStub((_req, res) => sendJson(res, 200, { id: 'p1', displayName: 'Sales' }));
    expect(await createPoliciesService(client).get({ policyId: 'p1' })).toEqual({ id: 'p1', displayName: 'Sales' });
    const url = new URL(server.requests[0]!.url, server.url);
    expect(url.pathname).toBe('/v1.0/identityGovernance/entitlementManagement/assignmentPolicies/p1');
    expect(url.searchParams.get('$expand')).toBe(POLICY_EXPAND);
  });

  it('policies.get asks for the package and the custom extension stages, as Graph needs to return them', async () => {
    const { server, client } = await graphStub((_req, res) => sendJson(res, 200, { id: 'p1', customExtensionStageSettings: [] }));
    expect(await createPoliciesService(client).get({ policyId: 'p1' })).toEqual({ id: 'p1', customExtensionStageSettings: [] });
    expect(server.requests.map((r) => new URL(r.url, server.url).searchParams.get('$expand'))).toEqual([POLICY_EXPAND]);
  });

  it('policies.update sends the checked body as a PUT and never calls Graph for a body with problems', async () => {
    const { server, client } = await graphStub((req, res) =>
      sendJson(res, 200, { id: 'p1', displayName: (JSON.parse(req.body) as { displayName: string }).displayName }),
    );
    const service = createPoliciesService(client);
    const saved = await service.update({ policyId: 'p1', policy: { ...fullPolicyBody(), createdDateTime: '2025-01-01T00:00:00Z' } });
    expect(saved).toMatchObject({ id: 'p1', displayName: 'Sales contractors' });
    const put = server.requests[0]!;
    expect(put.method).toBe('PUT');
    expect(put.headers['content-type']).toBe('application/json');
    expect(JSON.parse(put.body)).toEqual(fullPolicyBody());

    const refused = await failure(service.update({ policyId: 'p1', policy: { ...fullPolicyBody(), description: undefined } }));
    expect(refused).toBeInstanceOf(ContractFailure);
    expect(refused).toMatchObject({
      code: 'invalid_input',
      message: 'description is required',
      details: { problems: [{ path: 'description', code: 'required' }] },
    });
    const mismatch = await failure(service.update({ policyId: 'p1', policy: { ...fullPolicyBody(), id: 'p2' } }));
    expect(mismatch).toMatchObject({ code: 'invalid_input' });
    expect(server.requests).toHaveLength(1);
    expect(await service.validate({ policy: { nope: true } })).toMatchObject({
      problems: expect.arrayContaining([{ path: 'nope', code: 'unknownProperty', message: expect.any(String) }]),
    });
  });

  it('assignments.get passes $expand and $select (with the id) through', async () => {
    const { server, client } = await graphStub((_req, res) => sendJson(res, 200, { id: 'a1', state: 'delivered' }));
    await createAssignmentsService(client).get({
      assignmentId: 'a1',
      expand: ['accessPackage', 'target', 'target'],
      select: ['state', 'status'],
    });
    expect(server.requests[0]!.url).toBe(
      '/v1.0/identityGovernance/entitlementManagement/assignments/a1?$expand=accessPackage,target&$select=id,state,status',
    );
    await createAssignmentsService(client).get({ assignmentId: 'a1' });
    expect(server.requests[1]!.url).toBe('/v1.0/identityGovernance/entitlementManagement/assignments/a1');
  });

  it('roles.get reads a scoped role member, escaping the ids', async () => {
    const { server, client } = await graphStub((_req, res) => sendJson(res, 200, { id: 'm 1', roleId: 'r' }));
    await createRolesService(client).get({ administrativeUnitId: 'au/1', membershipId: 'm 1', select: ['roleMemberInfo'] });
    expect(server.requests[0]!.url).toBe('/v1.0/directory/administrativeUnits/au%2F1/scopedRoleMembers/m%201?$select=id,roleMemberInfo');
  });

  it('roles.addMember posts exactly the documented body through the writing client, and removeMember deletes by membership id', async () => {
    const roleId = '729827e3-9c14-49f7-bb1b-9608f156bbb8';
    const memberId = '0a1b2c3d-0000-4000-a000-00000000a7a7';
    const { server, client } = await graphStub((req, res) => {
      if (req.method === 'POST')
        sendJson(res, 201, {
          id: 'm1',
          roleId,
          administrativeUnitId: 'au1',
          roleMemberInfo: { id: memberId, displayName: 'Pat Lee', userPrincipalName: 'pat@x.test' },
        });
      else if (req.method === 'DELETE') res.writeHead(204).end();
      else sendJson(res, 200, { id: roleId, displayName: 'Helpdesk Administrator' });
    });
    let writes = 0;
    const writer = async () => (writes++, client());
    const roles = createRolesService(client, writer);
    expect(await roles.addMember({ administrativeUnitId: 'au1', roleId, memberId })).toEqual({
      id: 'm1',
      roleId,
      roleName: 'Helpdesk Administrator',
      memberId,
      memberName: 'Pat Lee',
      memberPrincipalName: 'pat@x.test',
      memberKind: 'user',
    });
    expect(server.requests[0]).toMatchObject({ method: 'POST', url: '/v1.0/directory/administrativeUnits/au1/scopedRoleMembers' });
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ roleId, roleMemberInfo: { id: memberId } });
    expect(await roles.removeMember({ administrativeUnitId: 'au1', membershipId: 'm 1' })).toEqual({ removed: true });
    expect(server.requests.at(-1)).toMatchObject({
      method: 'DELETE',
      url: '/v1.0/directory/administrativeUnits/au1/scopedRoleMembers/m%201',
    });
    expect(writes).toBe(2);
  });

  it('roles.addMember tells a refusal it recognises apart from one it does not', async () => {
    const { client } = await graphStub((req, res) => {
      if (req.url.includes('conflict'))
        sendGraphError(
          res,
          400,
          'Request_BadRequest',
          'A conflicting object with one or more of the specified property values is present in the directory.',
        );
      else sendGraphError(res, 403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.');
    });
    const roles = createRolesService(client);
    const input = { roleId: '729827e3-9c14-49f7-bb1b-9608f156bbb8', memberId: '0a1b2c3d-0000-4000-a000-00000000a7a7' };
    expect(await failure(roles.addMember({ administrativeUnitId: 'conflict', ...input }))).toMatchObject({
      code: 'invalid_input',
      details: { refusal: 'duplicate', graph: { status: 400 } },
    });
    const forbidden = await failure(roles.addMember({ administrativeUnitId: 'au1', ...input }));
    expect(forbidden).toMatchObject({ code: 'forbidden', details: { graph: { code: 'Authorization_RequestDenied' } } });
    expect(forbidden?.details).not.toHaveProperty('refusal');
  });

  it('turns Graph errors into contract errors carrying the Graph code and message', async () => {
    const { client } = await graphStub((req, res) => {
      if (req.url.includes('forbidden'))
        sendGraphError(res, 403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.');
      else
        sendGraphError(
          res,
          404,
          'Request_ResourceNotFound',
          "Resource 'missing' does not exist or one of its queried reference-property objects are not present.",
        );
    });
    const missing = await failure(createAssignmentsService(client).get({ assignmentId: 'missing' }));
    expect(missing).toBeInstanceOf(ContractFailure);
    expect(missing).toMatchObject({
      code: 'not_found',
      message: "Resource 'missing' does not exist or one of its queried reference-property objects are not present.",
      details: { graph: { status: 404, code: 'Request_ResourceNotFound', requestId: '8f5c1a52-3b0e-4c1f-9a51-6d1c0e7a1f00' } },
    });
    const denied = await failure(createRolesService(client).get({ administrativeUnitId: 'forbidden', membershipId: 'm' }));
    expect(denied).toMatchObject({ code: 'forbidden', details: { graph: { code: 'Authorization_RequestDenied' } } });
  });

  it('maps statuses to contract codes', () => {
    expect([400, 401, 403, 404, 410, 409, 429, 503, 0, 418].map(contractCodeFor)).toEqual([
      'invalid_input',
      'unauthenticated',
      'forbidden',
      'not_found',
      'not_found',
      'conflict',
      'unavailable',
      'unavailable',
      'unavailable',
      'internal',
    ]);
  });
});
