import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_CODE_GRANT } from './token-endpoint';
import {
  startTestDirectoryEmulator,
  TEST_CLIENT_ID,
  TEST_CLIENT_SECRET,
  TEST_TENANT,
  TEST_USER,
  userTokenForm,
  type TestDirectoryEmulator,
} from './test-support';

// Client authentication on every grant, as Entra checks it: a secret that is sent must be the
// app's (401 invalid_client, AADSTS7000215), and a refresh token issued to a confidential
// client (one that proved itself with its secret) is redeemed only with that secret (7000218
// without one). Public-client flows (PKCE, device code, ROPC without a secret) stay secretless.
let t: TestDirectoryEmulator;
beforeAll(async () => {
  t = await startTestDirectoryEmulator();
});
afterAll(() => t.close());

type Reply = { status: number; body: Record<string, unknown> };
const post = async (path: string, form: Record<string, string>): Promise<Reply> => {
  const response = await fetch(`${t.url}/${TEST_TENANT}${path}`, { method: 'POST', body: new URLSearchParams(form) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};
const token = (form: Record<string, string>) => post('/oauth2/v2.0/token', form);
const refresh = (refreshToken: string, extra: Record<string, string> = {}) =>
  token({ grant_type: 'refresh_token', client_id: TEST_CLIENT_ID, refresh_token: refreshToken, ...extra });

function expectInvalidClient(reply: Reply, aadsts: number): void {
  expect(reply.status).toBe(401);
  expect(reply.body).toMatchObject({ error: 'invalid_client', error_codes: [aadsts] });
  expect(reply.body.error_description).toMatch(new RegExp(`^AADSTS${aadsts}: `));
  expect(reply.body).not.toHaveProperty('access_token');
}

/** A refresh token from the password grant, with or without the app's secret. */
async function passwordRefreshToken(withSecret: boolean): Promise<string> {
  const form = userTokenForm(TEST_USER, 'https://graph.microsoft.com/.default offline_access');
  if (!withSecret) delete form.client_secret;
  const reply = await token(form);
  expect(reply.status).toBe(200);
  return reply.body.refresh_token as string;
}

/** A browser sign-in with PKCE (a public client): the code the redirect carries. */
async function authorizationCode(challenge: string): Promise<string> {
  const query = new URLSearchParams({
    client_id: TEST_CLIENT_ID,
    response_type: 'code',
    redirect_uri: 'http://localhost:53124/',
    scope: 'offline_access Calendars.Read',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const url = `${t.url}/${TEST_TENANT}/oauth2/v2.0/authorize?${query}`;
  const page = await (await fetch(url)).text();
  const flow = /name="flow" value="([^"]*)"/.exec(page)?.[1] ?? '';
  const signedIn = await fetch(url, {
    method: 'POST',
    body: new URLSearchParams({ flow, username: TEST_USER.userPrincipalName, password: TEST_USER.password }),
    redirect: 'manual',
  });
  return new URL(signedIn.headers.get('location')!).searchParams.get('code')!;
}

/** A device code sign-in completed on the emulator's page: the device code to redeem. */
async function signedInDeviceCode(): Promise<string> {
  const started = await post('/oauth2/v2.0/devicecode', { client_id: TEST_CLIENT_ID, scope: 'offline_access Calendars.Read' });
  const { user_code: userCode, device_code: deviceCode, verification_uri: verificationUri } = started.body as Record<string, string>;
  const page = await fetch(verificationUri!, {
    method: 'POST',
    body: new URLSearchParams({ otc: userCode!, username: TEST_USER.userPrincipalName, password: TEST_USER.password }),
  });
  expect(page.status).toBe(200);
  return deviceCode!;
}

describe('refresh_token grant: client authentication', () => {
  it('a confidential client refreshes only with its own secret', async () => {
    const refreshToken = await passwordRefreshToken(true);
    expectInvalidClient(await refresh(refreshToken, { client_secret: 'not-the-secret' }), 7000215);
    expectInvalidClient(await refresh(refreshToken), 7000218);
    const right = await refresh(refreshToken, { client_secret: TEST_CLIENT_SECRET });
    expect(right.status).toBe(200);
    expect(right.body.access_token).toEqual(expect.any(String));
    // The new refresh token is bound the same way.
    expectInvalidClient(await refresh(right.body.refresh_token as string), 7000218);
  });

  it('a public client refreshes without a secret, but a wrong one sent is still refused', async () => {
    const refreshToken = await passwordRefreshToken(false);
    expect((await refresh(refreshToken)).status).toBe(200);
    expectInvalidClient(await refresh(refreshToken, { client_secret: 'not-the-secret' }), 7000215);
  });

  it('a wrong secret is refused before the token is looked at, and a bad token without a secret is invalid_grant', async () => {
    expectInvalidClient(await refresh('rt.made.up', { client_secret: 'not-the-secret' }), 7000215);
    expect(await refresh('rt.made.up')).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });
});

describe('every grant checks a secret that is sent', () => {
  it('client credentials: wrong 7000215, missing 7000216', async () => {
    const form = { grant_type: 'client_credentials', client_id: TEST_CLIENT_ID, scope: 'https://graph.microsoft.com/.default' };
    expectInvalidClient(await token({ ...form, client_secret: 'not-the-secret' }), 7000215);
    expectInvalidClient(await token(form), 7000216);
  });

  it('password: a wrong secret is refused, none is a public client', async () => {
    expectInvalidClient(await token({ ...userTokenForm(), client_secret: 'not-the-secret' }), 7000215);
    const form = userTokenForm();
    delete form.client_secret;
    expect((await token(form)).status).toBe(200);
  });

  it('authorization code: a wrong secret is refused and does not use the code up; PKCE alone is enough', async () => {
    const verifier = randomBytes(48).toString('base64url');
    const code = await authorizationCode(createHash('sha256').update(verifier).digest('base64url'));
    const form = {
      grant_type: 'authorization_code',
      client_id: TEST_CLIENT_ID,
      redirect_uri: 'http://localhost:53124/',
      code,
      code_verifier: verifier,
    };
    expectInvalidClient(await token({ ...form, client_secret: 'not-the-secret' }), 7000215);
    const redeemed = await token(form);
    expect(redeemed.status).toBe(200);
    // Issued to a public client: refreshed without a secret, as msal's PublicClientApplication does.
    expect((await refresh(redeemed.body.refresh_token as string)).status).toBe(200);
  });

  it('device code: a wrong secret is refused; a confidential redemption binds its refresh token', async () => {
    const deviceCode = await signedInDeviceCode();
    const form = { grant_type: DEVICE_CODE_GRANT, client_id: TEST_CLIENT_ID, device_code: deviceCode };
    expectInvalidClient(await token({ ...form, client_secret: 'not-the-secret' }), 7000215);
    const redeemed = await token({ ...form, client_secret: TEST_CLIENT_SECRET });
    expect(redeemed.status).toBe(200);
    expectInvalidClient(await refresh(redeemed.body.refresh_token as string), 7000218);
  });
});
