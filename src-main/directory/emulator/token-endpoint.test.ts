import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestDirectoryEmulator,
  TEST_CLIENT_ID,
  TEST_CLIENT_SECRET,
  TEST_TENANT,
  TEST_USER,
  userTokenForm,
  type TestDirectoryEmulator,
} from './test-support';

const claimsOf = (token: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

describe('token endpoint', () => {
  let t: TestDirectoryEmulator;
  const post = async (form: Record<string, string>, tenant = TEST_TENANT) => {
    const response = await fetch(`${t.url}/${tenant}/oauth2/v2.0/token`, { method: 'POST', body: new URLSearchParams(form) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const clientCredentials = {
    grant_type: 'client_credentials',
    client_id: TEST_CLIENT_ID,
    client_secret: TEST_CLIENT_SECRET,
    scope: 'https://graph.microsoft.com/.default',
  };

  beforeAll(async () => {
    t = await startTestDirectoryEmulator({
      tokenLifetimeSeconds: 1800,
      apps: [{ client_id: 'narrow-app', client_secret: 'narrow-secret', permissions: ['Calendars.Read'] }],
    });
  });
  afterAll(() => t.close());

  it('issues an application token with roles for client credentials', async () => {
    const { status, body } = await post(clientCredentials);
    expect(status).toBe(200);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 1800, ext_expires_in: 1800 });
    const claims = claimsOf(body.access_token as string);
    expect(claims).toMatchObject({ tid: TEST_TENANT, appid: TEST_CLIENT_ID, idtyp: 'app', aud: 'https://graph.microsoft.com' });
    expect(claims.roles).toContain('Calendars.ReadWrite');
    expect((claims.exp as number) - (claims.iat as number)).toBe(1800);
  });

  it('issues a user token with scp for the password grant, and a refresh token with offline_access', async () => {
    const { status, body } = await post(userTokenForm(TEST_USER, 'https://graph.microsoft.com/Calendars.Read offline_access'));
    expect(status).toBe(200);
    expect(body.scope).toBe('https://graph.microsoft.com/Calendars.Read');
    expect(claimsOf(body.access_token as string)).toMatchObject({
      oid: TEST_USER.id,
      idtyp: 'user',
      scp: 'Calendars.Read',
      upn: TEST_USER.userPrincipalName,
    });
    // Signed in with the secret (a confidential client): the refresh needs it too (client-auth.test.ts).
    const refreshed = await post({
      grant_type: 'refresh_token',
      client_id: TEST_CLIENT_ID,
      client_secret: TEST_CLIENT_SECRET,
      refresh_token: body.refresh_token as string,
    });
    expect(refreshed.status).toBe(200);
    expect(claimsOf(refreshed.body.access_token as string).scp).toBe('Calendars.Read');
    const forged = await post({
      grant_type: 'refresh_token',
      client_id: TEST_CLIENT_ID,
      refresh_token: `${body.refresh_token as string}x`,
    });
    expect(forged).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('a sign-in asking for a permission the app was not consented answers consent_required naming it', async () => {
    const { status, body } = await post({
      ...userTokenForm(),
      client_id: 'narrow-app',
      client_secret: 'narrow-secret',
      scope: 'Calendars.Read Calendars.ReadWrite https://graph.microsoft.com/User.Read offline_access',
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: 'invalid_grant', suberror: 'consent_required', error_codes: [65001] });
    expect(body.error_description).toMatch(
      /^AADSTS65001: The user or administrator has not consented to use the application with ID 'narrow-app' named 'narrow-app'\. /,
    );
    expect(body.error_description).toContain('Permissions not consented: Calendars.ReadWrite, User.Read.');
    expect(body.error_description).not.toMatch(/not consented: [^.]*Calendars\.Read[,.]/);
  });

  it('answers each failure in the Entra ID shape with its AADSTS code', async () => {
    const cases: [Record<string, string>, number, string, number][] = [
      [{ ...clientCredentials, client_secret: 'wrong' }, 401, 'invalid_client', 7000215],
      [{ grant_type: 'client_credentials', client_id: TEST_CLIENT_ID, scope: clientCredentials.scope }, 401, 'invalid_client', 7000216],
      [{ ...clientCredentials, client_id: 'nobody' }, 400, 'unauthorized_client', 700016],
      [{ ...clientCredentials, scope: 'https://graph.microsoft.com/Calendars.Read' }, 400, 'invalid_scope', 1002012],
      [{ ...clientCredentials, scope: 'https://example.com/.default' }, 400, 'invalid_resource', 500011],
      [{ client_id: TEST_CLIENT_ID }, 400, 'invalid_request', 900144],
      [{ ...clientCredentials, grant_type: 'urn:ietf:params:oauth:grant-type:saml1_1-bearer' }, 400, 'unsupported_grant_type', 70003],
      [{ ...userTokenForm(), password: 'wrong' }, 400, 'invalid_grant', 50126],
      [{ ...userTokenForm(), username: 'nobody@emulator.test' }, 400, 'invalid_grant', 50034],
      [
        { ...userTokenForm(), client_id: 'narrow-app', client_secret: 'narrow-secret', scope: 'Calendars.ReadWrite' },
        400,
        'invalid_grant',
        65001,
      ],
    ];
    for (const [form, status, error, code] of cases) {
      const reply = await post(form);
      expect({ form, status: reply.status, error: reply.body.error }).toEqual({ form, status, error });
      expect(reply.body.error_codes).toEqual([code]);
      expect(reply.body.error_description).toMatch(new RegExp(`^AADSTS${code}: `));
      expect(reply.body).toHaveProperty('trace_id');
      expect(reply.body).toHaveProperty('correlation_id');
      expect(reply.body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z$/);
    }
    const otherTenant = await post(clientCredentials, 'contoso.example');
    expect(otherTenant).toMatchObject({ status: 400, body: { error: 'invalid_request', error_codes: [90002] } });
    const organizations = await post(userTokenForm(), 'organizations');
    expect(organizations.status).toBe(200);
  });
});
