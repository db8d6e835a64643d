import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphCall, startTestDirectoryEmulator, TEST_OTHER_USER, userTokenForm, type TestDirectoryEmulator } from './test-support';

const EM = '/identityGovernance/entitlementManagement';

/** Which route answers a path and method, and how a path or method the emulator has not is refused. */
describe('directory emulator routes', () => {
  let t: TestDirectoryEmulator;
  let app: string;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    t = await startTestDirectoryEmulator();
    app = await t.token();
    alice = await t.token(userTokenForm());
    bob = await t.token(userTokenForm(TEST_OTHER_USER));
  });
  afterAll(async () => t?.close());

  const error = async (token: string | null, path: string, method = 'GET') => {
    const reply = await graphCall(t.url, token, path, { method });
    return { status: reply.status, code: reply.body?.error?.code, message: reply.body?.error?.message };
  };

  it('reads /v1.0 paths with empty segments as Graph does, and the schema in any case or escape', async () => {
    const users = await fetch(`${t.url}/v1.0//users//`, { headers: { Authorization: `Bearer ${app}` } });
    expect(users.status).toBe(200);
    expect(((await users.json()) as { value: unknown[] }).value).toHaveLength(2);
    for (const path of ['/v1.0/$metadata', '/V1.0/$METADATA', '/v1.0/%24metadata']) {
      const schema = await fetch(`${t.url}${path}`);
      expect([path, schema.status, schema.headers.get('content-type')]).toEqual([path, 200, expect.stringContaining('xml')]);
    }
    const count = await fetch(`${t.url}/v1.0/users/$count`, { headers: { Authorization: `Bearer ${app}`, ConsistencyLevel: 'eventual' } });
    expect([count.status, await count.text()]).toEqual([200, '2']);
  });

  it('answers another method on a resource with its 405, after the checks the resource makes first', async () => {
    expect(await error(alice, '/me/events/AAMkAD', 'PUT')).toEqual({
      status: 405,
      code: 'ErrorInvalidRequest',
      message: 'The PUT method is not supported on this resource.',
    });
    expect(await error(app, `${EM}/assignments`, 'PATCH')).toEqual({
      status: 405,
      code: 'Request_BadRequest',
      message: 'The PATCH method is not supported on assignments.',
    });
    // A signed-in user without an entitlement role is refused before the method is judged.
    expect((await error(bob, `${EM}/assignments`, 'PATCH')).status).toBe(403);
    expect(await error(app, '/roleManagement/directory/roleDefinitions', 'DELETE')).toEqual({
      status: 405,
      code: 'Request_BadRequest',
      message: 'The DELETE method is not supported on built-in role definitions.',
    });
    expect(await error(app, '/directoryObjects/getByIds')).toEqual({
      status: 405,
      code: 'Request_BadRequest',
      message: 'The GET method is not supported on getByIds.',
    });
    expect(await error(app, '/directory/administrativeUnits/$count', 'POST')).toEqual({
      status: 405,
      code: 'Request_BadRequest',
      message: 'The POST method is not supported on administrativeUnits.',
    });
  });

  it('names the last segment of a path it has no resource for', async () => {
    const notFound = (segment: string) => ({
      status: 400,
      code: 'BadRequest',
      message: `Resource not found for the segment '${segment}'.`,
    });
    expect(await error(alice, '/me/calendarView', 'POST')).toEqual(notFound('calendarView'));
    expect(await error(app, `${EM}/nothing`)).toEqual(notFound('nothing'));
    expect(await error(app, `${EM}/accessPackages/x/y`)).toEqual(notFound('y'));
    expect(await error(app, '/$batch')).toEqual(notFound('$batch'));
    expect(await error(app, '/me', 'POST')).toEqual(notFound('me'));
    expect(await error(app, '/')).toEqual(notFound(''));
  });

  it('checks who is asked about before saying a path is no resource', async () => {
    expect(await error(app, '/users/nobody@emulator.test/anything')).toMatchObject({ status: 404, code: 'ErrorInvalidUser' });
    expect(await error(app, '/me/anything')).toEqual({
      status: 400,
      code: 'BadRequest',
      message: '/me request is only valid with delegated authentication flow.',
    });
  });

  it('asks for the token before reading the path, and refuses a malformed escape in it', async () => {
    expect((await error(null, '/users/%ZZ')).status).toBe(401);
    expect(await error(app, '/users/%ZZ')).toEqual({ status: 400, code: 'BadRequest', message: 'The request URL is not valid.' });
  });

  it('answers paths outside Graph and the sign-in service with 404 saying where things are', async () => {
    expect(await error(app, `${t.url}/nowhere`)).toEqual({
      status: 404,
      code: 'NotFound',
      message: 'No such endpoint: GET /nowhere. Graph is under /v1.0, tokens at /{tenant}/oauth2/v2.0/token.',
    });
    expect((await error(app, `${t.url}/${t.tenant}/oauth2/v2.0/token`)).status).toBe(404);
    expect((await error(app, `${t.url}/v1.0`)).status).toBe(404);
    expect(await error(app, `${t.url}/_emulator/faults`)).toEqual({
      status: 404,
      code: 'NotFound',
      message: 'No emulator control at GET /_emulator/faults.',
    });
    expect((await error(null, `${t.url}/_emulator/faults`, 'PUT')).status).toBe(401);
  });
});
