import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  graphCall,
  startTestDirectoryEmulator,
  TEST_CLIENT_ID,
  TEST_CLIENT_SECRET,
  TEST_TENANT,
  TEST_USER,
  type TestDirectoryEmulator,
} from './test-support';

// The authorize endpoint over HTTP, step by step as a browser and an app do it: the sign-in
// page, its form, the redirect with the code, and the code's one redemption with PKCE.
let t: TestDirectoryEmulator;
beforeAll(async () => {
  t = await startTestDirectoryEmulator({
    apps: [
      { client_id: 'calendar-only', client_secret: 'c-secret', display_name: 'Calendar reader', permissions: ['Calendars.Read'] },
      { client_id: 'web-app', client_secret: 'w-secret', display_name: 'Web app', redirect_uris: ['https://app.example/signin-oidc'] },
    ],
  });
});
afterAll(() => t.close());

const REDIRECT = 'http://localhost:53123/';
const verifier = randomBytes(48).toString('base64url');
const challenge = createHash('sha256').update(verifier).digest('base64url');

function authorizeUrl(params: Record<string, string> = {}): string {
  const query = new URLSearchParams({
    client_id: TEST_CLIENT_ID,
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope: 'openid offline_access Calendars.Read',
    state: 'state-123',
    nonce: 'nonce-456',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...params,
  });
  return `${t.url}/${TEST_TENANT}/oauth2/v2.0/authorize?${query}`;
}

const flowOf = (page: string) => /name="flow" value="([^"]*)"/.exec(page)?.[1] ?? '';

/** Opens the page and submits its form; answers the reply (redirects not followed). */
async function signIn(url: string, fields: Record<string, string>, cookie?: string): Promise<Response> {
  const page = await (await fetch(url, { headers: cookie ? { cookie } : {} })).text();
  return fetch(url, { method: 'POST', body: new URLSearchParams({ flow: flowOf(page), ...fields }), redirect: 'manual' });
}

const redeem = (form: Record<string, string>) =>
  fetch(`${t.url}/${TEST_TENANT}/oauth2/v2.0/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: TEST_CLIENT_ID, redirect_uri: REDIRECT, ...form }),
  });

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

describe('authorize endpoint', () => {
  it('shows the sign-in page with the app and the permissions asked for, framing refused', async () => {
    const reply = await fetch(authorizeUrl({ login_hint: TEST_USER.userPrincipalName }));
    const page = await reply.text();
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(reply.headers.get('content-security-policy')).toContain("form-action 'self' http://localhost:53123");
    expect(page).toContain('to continue to <strong>Relay Console tests</strong>');
    expect(page).toContain('<li>Calendars.Read</li>');
    expect(page).toContain(`value="${TEST_USER.userPrincipalName}"`);
  });

  it('a wrong password keeps the person on the page; the right one returns a code once, redeemable only with the PKCE verifier', async () => {
    const wrong = await signIn(authorizeUrl(), { username: TEST_USER.userPrincipalName, password: 'nope' });
    expect(wrong.status).toBe(200);
    expect(await wrong.text()).toContain('Your account or password is incorrect.');

    const right = await signIn(authorizeUrl(), { username: TEST_USER.userPrincipalName, password: TEST_USER.password });
    expect(right.status).toBe(302);
    const back = new URL(right.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('state-123');
    const code = back.searchParams.get('code')!;
    expect(code).toMatch(/^ac\./);

    const mismatched = await redeem({ code, code_verifier: randomBytes(48).toString('base64url') });
    expect(mismatched.status).toBe(400);
    expect(await mismatched.json()).toMatchObject({ error: 'invalid_grant', error_codes: [501481] });
    const elsewhere = await redeem({ code, code_verifier: verifier, redirect_uri: 'http://localhost:9/' });
    expect(await elsewhere.json()).toMatchObject({ error: 'invalid_grant', error_codes: [500112] });

    const tokens = await redeem({ code, code_verifier: verifier, scope: 'Calendars.Read openid offline_access' });
    expect(tokens.status).toBe(200);
    const body = (await tokens.json()) as { access_token: string; id_token: string; refresh_token: string; scope: string };
    expect(body.scope).toBe('Calendars.Read openid');
    expect(body.refresh_token).toBeTruthy();
    expect(claimsOf(body.id_token)).toMatchObject({
      nonce: 'nonce-456',
      preferred_username: TEST_USER.userPrincipalName,
      aud: TEST_CLIENT_ID,
    });
    expect(claimsOf(body.access_token)).toMatchObject({ scp: 'Calendars.Read', oid: TEST_USER.id });
    expect((await graphCall(t.url, body.access_token, '/me/events')).status).toBe(200);

    const again = await redeem({ code, code_verifier: verifier });
    expect(await again.json()).toMatchObject({ error: 'invalid_grant', error_codes: [54005] });
  });

  it('a web app without PKCE redeems with its secret, and only with it', async () => {
    const url = authorizeUrl({
      client_id: 'web-app',
      redirect_uri: 'https://app.example/signin-oidc',
      code_challenge: '',
      code_challenge_method: '',
      response_mode: 'query',
    }).replace(/&code_challenge=&code_challenge_method=/, '');
    const right = await signIn(url, { username: TEST_USER.userPrincipalName, password: TEST_USER.password });
    const code = new URL(right.headers.get('location')!).searchParams.get('code')!;
    const noSecret = await redeem({ code, client_id: 'web-app', redirect_uri: 'https://app.example/signin-oidc' });
    expect(noSecret.status).toBe(401);
    expect(await noSecret.json()).toMatchObject({ error: 'invalid_client' });
    const withSecret = await redeem({
      code,
      client_id: 'web-app',
      client_secret: 'w-secret',
      redirect_uri: 'https://app.example/signin-oidc',
    });
    expect(withSecret.status).toBe(200);
  });

  it('form_post answers a page that posts the code to the app, allowed by its policy', async () => {
    const right = await signIn(authorizeUrl({ response_mode: 'form_post' }), {
      username: TEST_USER.userPrincipalName,
      password: TEST_USER.password,
    });
    expect(right.status).toBe(200);
    const page = await right.text();
    expect(page).toContain(`<form method="post" action="${REDIRECT}">`);
    expect(page).toMatch(/<input type="hidden" name="code" value="ac\.[^"]+">/);
    expect(page).toContain('<input type="hidden" name="state" value="state-123">');
    const csp = right.headers.get('content-security-policy')!;
    const nonce = /<script nonce="([^"]+)">/.exec(page)![1]!;
    expect(csp).toContain(`script-src 'nonce-${nonce}'`);
    expect(csp).toContain('form-action http://localhost:53123');
  });

  it('prompt=none answers from the browser session, or login_required without one', async () => {
    const none = await fetch(authorizeUrl({ prompt: 'none' }), { redirect: 'manual' });
    const refused = new URL(none.headers.get('location')!);
    expect(refused.searchParams.get('error')).toBe('login_required');
    expect(refused.searchParams.get('error_description')).toMatch(/^AADSTS50058:/);
    expect(refused.searchParams.get('state')).toBe('state-123');

    const right = await signIn(authorizeUrl(), { username: TEST_USER.userPrincipalName, password: TEST_USER.password });
    const cookie = right.headers.get('set-cookie')!.split(';')[0]!;
    const silent = await fetch(authorizeUrl({ prompt: 'none' }), { redirect: 'manual', headers: { cookie } });
    expect(new URL(silent.headers.get('location')!).searchParams.get('code')).toMatch(/^ac\./);
    const forged = await fetch(authorizeUrl({ prompt: 'none' }), {
      redirect: 'manual',
      headers: { cookie: cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) },
    });
    expect(new URL(forged.headers.get('location')!).searchParams.get('error')).toBe('login_required');
  });

  it('Cancel returns access_denied; a form not from this page is refused', async () => {
    const cancelled = await signIn(authorizeUrl(), { cancel: '1' });
    expect(new URL(cancelled.headers.get('location')!).searchParams.get('error')).toBe('access_denied');
    const forged = await fetch(authorizeUrl(), {
      method: 'POST',
      body: new URLSearchParams({
        flow: `${Date.now() + 60_000}.forged`,
        username: TEST_USER.userPrincipalName,
        password: TEST_USER.password,
      }),
      redirect: 'manual',
    });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('This sign-in page has expired.');
    const otherRequest = await (await fetch(authorizeUrl())).text();
    const replayed = await fetch(authorizeUrl({ state: 'other' }), {
      method: 'POST',
      body: new URLSearchParams({ flow: flowOf(otherRequest), username: TEST_USER.userPrincipalName, password: TEST_USER.password }),
      redirect: 'manual',
    });
    expect(replayed.status).toBe(400);
  });

  it('errors: shown on the page until the redirect address is trusted, then sent back to it', async () => {
    const unknownApp = await fetch(authorizeUrl({ client_id: 'nobody' }));
    expect(unknownApp.status).toBe(400);
    expect(await unknownApp.text()).toContain('AADSTS700016');
    const foreignRedirect = await fetch(authorizeUrl({ redirect_uri: 'https://evil.example/' }));
    expect(foreignRedirect.status).toBe(400);
    expect(await foreignRedirect.text()).toContain('AADSTS50011');
    const unknownTenant = await fetch(authorizeUrl().replace(TEST_TENANT, 'fabrikam.example'));
    expect(await unknownTenant.text()).toContain('AADSTS90002');

    const implicit = await fetch(authorizeUrl({ response_type: 'token' }), { redirect: 'manual' });
    expect(implicit.status).toBe(302);
    const back = new URL(implicit.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('unsupported_response_type');
    expect(back.searchParams.get('state')).toBe('state-123');
    const badChallenge = await fetch(authorizeUrl({ code_challenge: 'short' }), { redirect: 'manual' });
    expect(new URL(badChallenge.headers.get('location')!).searchParams.get('error_description')).toMatch(/^AADSTS501491:/);
    const unconsented = await fetch(authorizeUrl({ client_id: 'calendar-only', scope: 'openid User.Read.All' }), { redirect: 'manual' });
    const consent = new URL(unconsented.headers.get('location')!);
    expect(consent.searchParams.get('error')).toBe('consent_required');
    expect(consent.searchParams.get('error_description')).toMatch(/^AADSTS65001:/);
  });

  it('the OpenID configuration names the authorize endpoint', async () => {
    const config = (await (await fetch(`${t.url}/${TEST_TENANT}/v2.0/.well-known/openid-configuration`)).json()) as {
      authorization_endpoint: string;
    };
    expect(config.authorization_endpoint).toBe(`${t.url}/${TEST_TENANT}/oauth2/v2.0/authorize`);
    expect(TEST_CLIENT_SECRET).toBeTruthy();
  });
});
