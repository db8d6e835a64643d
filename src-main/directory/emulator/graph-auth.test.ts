import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  graphCall,
  startTestDirectoryEmulator,
  TEST_OTHER_USER,
  TEST_USER,
  userTokenForm,
  type TestDirectoryEmulator,
} from './test-support';

describe('bearer tokens on /v1.0', () => {
  let t: TestDirectoryEmulator;
  let appToken: string;

  beforeAll(async () => {
    t = await startTestDirectoryEmulator({
      tokenLifetimeSeconds: 600,
      apps: [{ client_id: 'no-calendar', client_secret: 's3', permissions: ['EntitlementManagement.Read.All'] }],
    });
    appToken = await t.token();
  });
  afterAll(() => t.close());

  const expectGraphError = (reply: Awaited<ReturnType<typeof graphCall>>, status: number, code: string) => {
    expect(reply.status).toBe(status);
    expect(reply.body.error.code).toBe(code);
    expect(reply.body.error.innerError.date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(reply.body.error.innerError['request-id']).toBe(reply.headers.get('request-id'));
    expect(reply.body.error.innerError['client-request-id']).toBe(reply.headers.get('client-request-id'));
  };

  it('401 InvalidAuthenticationToken without a token, echoing client-request-id', async () => {
    const reply = await graphCall(t.url, null, `/users/${TEST_USER.id}/events`, { headers: { 'client-request-id': 'my-trace-1' } });
    expectGraphError(reply, 401, 'InvalidAuthenticationToken');
    expect(reply.body.error.message).toBe('Access token is empty.');
    expect(reply.headers.get('client-request-id')).toBe('my-trace-1');
    expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });

  it('serves $metadata without a token, as Graph does, with the schema its context URLs name', async () => {
    const reply = await fetch(`${t.url}/v1.0/$metadata`, { headers: { 'client-request-id': 'schema-1' } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(reply.headers.get('client-request-id')).toBe('schema-1');
    const xml = await reply.text();
    expect(xml).toContain('<Schema Namespace="microsoft.graph"');
    expect(xml).toContain('<EntitySet Name="users" EntityType="microsoft.graph.user"/>');
    expect(xml).toContain('<Singleton Name="identityGovernance" Type="microsoft.graph.identityGovernance"/>');
    expect((await fetch(`${t.url}/v1.0/%24metadata`)).status).toBe(200);
    // Only the schema is anonymous.
    expectGraphError(await graphCall(t.url, null, '/users'), 401, 'InvalidAuthenticationToken');
  });

  it('401 for a forged or altered token', async () => {
    const [head, body] = appToken.split('.');
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString()) as Record<string, unknown>;
    const widened = Buffer.from(JSON.stringify({ ...claims, roles: ['Calendars.ReadWrite', 'Directory.ReadWrite.All'] })).toString(
      'base64url',
    );
    const signature = appToken.split('.')[2]!;
    // The signature's first character always carries six whole bits, so changing it always changes the
    // signature (its last characters carry padding bits a decoder ignores: changing those may not).
    const altered = `${head}.${body}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    for (const token of [`${head}.${widened}.${signature}`, 'not-a-jwt', altered]) {
      const reply = await graphCall(t.url, token, `/users/${TEST_USER.id}/events`);
      expectGraphError(reply, 401, 'InvalidAuthenticationToken');
      expect(reply.body.error.message).toMatch(/^Access token validation failure/);
    }
  });

  it('401 "expired" once the token lifetime has passed', async () => {
    const token = await t.token();
    expect((await graphCall(t.url, token, `/users/${TEST_USER.id}/events`)).status).toBe(200);
    t.shift(601_000);
    try {
      const reply = await graphCall(t.url, token, `/users/${TEST_USER.id}/events`);
      expectGraphError(reply, 401, 'InvalidAuthenticationToken');
      expect(reply.body.error.message).toBe('Access token has expired or is not yet valid.');
    } finally {
      t.shift(0);
    }
  });

  it('403 ErrorAccessDenied for an app without a calendar permission', async () => {
    const token = await t.token({
      grant_type: 'client_credentials',
      client_id: 'no-calendar',
      client_secret: 's3',
      scope: 'https://graph.microsoft.com/.default',
    });
    expectGraphError(
      await graphCall(t.url, token, `/users/${TEST_USER.id}/calendarView/delta?startDateTime=2025-01-01&endDateTime=2025-01-02`),
      403,
      'ErrorAccessDenied',
    );
  });

  it("403 for a read-only user token writing, and for another user's calendar without .Shared", async () => {
    const readOnly = await t.token(userTokenForm(TEST_USER, 'Calendars.Read'));
    expect((await graphCall(t.url, readOnly, '/me/events')).status).toBe(200);
    const write = await graphCall(t.url, readOnly, '/me/events', {
      method: 'POST',
      body: {
        subject: 'x',
        start: { dateTime: '2025-01-01T10:00:00', timeZone: 'UTC' },
        end: { dateTime: '2025-01-01T11:00:00', timeZone: 'UTC' },
      },
    });
    expectGraphError(write, 403, 'ErrorAccessDenied');
    expectGraphError(await graphCall(t.url, readOnly, `/users/${TEST_OTHER_USER.id}/events`), 403, 'ErrorAccessDenied');
    expect((await graphCall(t.url, readOnly, `/users/${TEST_USER.userPrincipalName}/events`)).status).toBe(200);
  });

  it('/me needs a user token; unknown users are 404', async () => {
    expectGraphError(await graphCall(t.url, appToken, '/me/events'), 400, 'BadRequest');
    expectGraphError(await graphCall(t.url, appToken, '/users/nobody@emulator.test/events'), 404, 'ErrorInvalidUser');
    const user = await t.token(userTokenForm());
    const me = await graphCall(t.url, user, '/me');
    expect(me.body).toMatchObject({ id: TEST_USER.id, userPrincipalName: TEST_USER.userPrincipalName });
  });
});
