import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDirectoryEmulator, type TestDirectoryEmulator } from './test-support';

// msal-node, Microsoft's own sign-in library, against the emulator as its authority, with
// nothing set but the authority and knownAuthorities: OpenID discovery, client credentials,
// a device code sign-in completed on the emulator's sign-in page, a refresh, and a browser
// sign-in (authorization code + PKCE) through the authorize page. In a process
// of its own that trusts the emulator's local CA (msal asks for https).
let emu: TestDirectoryEmulator;
beforeAll(async () => {
  emu = await startTestDirectoryEmulator();
});
afterAll(() => emu.close());

const msalPath = createRequire(import.meta.url).resolve('@azure/msal-node');

const script = (
  host: string,
  tenant: string,
  domain: string,
  clientId: string,
  secret: string,
  user: { userPrincipalName: string; password: string },
) => `
const msal = require(${JSON.stringify(msalPath)});
const host = ${JSON.stringify(host)};
(async () => {
  const out = {};
  const app = new msal.ConfidentialClientApplication({ auth: { clientId: ${JSON.stringify(clientId)}, clientSecret: ${JSON.stringify(secret)}, authority: 'https://' + host + '/${tenant}', knownAuthorities: [host] } });
  const appToken = await app.acquireTokenByClientCredential({ scopes: ['https://graph.microsoft.com/.default'] });
  const users = await (await fetch('https://' + host + '/v1.0/users?$select=userPrincipalName', { headers: { Authorization: 'Bearer ' + appToken.accessToken } })).json();
  out.appOnly = { tokenType: appToken.tokenType, users: users.value.map((u) => u.userPrincipalName).sort() };

  // A person signs in with a device code, through the tenant's domain name.
  const pca = new msal.PublicClientApplication({ auth: { clientId: ${JSON.stringify(clientId)}, authority: 'https://' + host + '/${domain}', knownAuthorities: [host] } });
  let shown;
  const result = await pca.acquireTokenByDeviceCode({
    scopes: ['Calendars.Read', 'User.Read'],
    deviceCodeCallback: async (info) => {
      shown = { verificationUri: info.verificationUri, codeLength: info.userCode.length, message: info.message };
      const form = new URLSearchParams({ otc: info.userCode.toLowerCase(), username: ${JSON.stringify(user.userPrincipalName)}, password: 'wrong' });
      const refused = await fetch(info.verificationUri, { method: 'POST', body: form });
      form.set('password', ${JSON.stringify(user.password)});
      const page = await (await fetch(info.verificationUri, { method: 'POST', body: form })).text();
      shown.refused = refused.status;
      shown.signedIn = /You have signed in/.test(page);
    },
  });
  const me = await (await fetch('https://' + host + '/v1.0/me', { headers: { Authorization: 'Bearer ' + result.accessToken } })).json();
  const renewed = await pca.acquireTokenSilent({ account: result.account, scopes: ['Calendars.Read'], forceRefresh: true });
  out.device = { shown, username: result.account.username, tenantId: result.account.tenantId, scopes: result.scopes.sort(), me: me.userPrincipalName, renewed: renewed.accessToken !== result.accessToken, fromCache: renewed.fromCache };

  // A person signs in through the browser: msal opens the authorize page (auth code + PKCE) and
  // listens on a loopback port for the redirect. The "browser" here reads the page, posts its
  // form and follows the redirect, as a person's browser would.
  const desktop = new msal.PublicClientApplication({ auth: { clientId: ${JSON.stringify(clientId)}, authority: 'https://' + host + '/${domain}', knownAuthorities: [host] } });
  const browser = {};
  const interactive = await desktop.acquireTokenInteractive({
    scopes: ['Calendars.Read'],
    successTemplate: 'signed in',
    openBrowser: async (url) => {
      const asked = new URL(url);
      browser.asked = { challengeMethod: asked.searchParams.get('code_challenge_method'), hasChallenge: !!asked.searchParams.get('code_challenge'), redirect: asked.searchParams.get('redirect_uri') };
      const page = await (await fetch(url)).text();
      browser.page = { app: /to continue to <strong>([^<]*)/.exec(page)?.[1], permissions: [...page.matchAll(/<li>([^<]*)<[/]li>/g)].map((m) => m[1]) };
      const flow = /name="flow" value="([^"]*)"/.exec(page)[1];
      const wrong = await fetch(url, { method: 'POST', body: new URLSearchParams({ flow, username: ${JSON.stringify(user.userPrincipalName)}, password: 'wrong' }), redirect: 'manual' });
      browser.wrong = { status: wrong.status, said: /role="alert"[^>]*>([^<]*)/.exec(await wrong.text())?.[1] };
      const right = await fetch(url, { method: 'POST', body: new URLSearchParams({ flow, username: ${JSON.stringify(user.userPrincipalName)}, password: ${JSON.stringify(user.password)} }), redirect: 'manual' });
      // msal asks for response_mode=form_post: the page posts the code to its loopback listener.
      const page2 = await right.text();
      const action = /<form method="post" action="([^"]*)"/.exec(page2)[1];
      const fields = Object.fromEntries([...page2.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]));
      browser.back = { status: right.status, mode: asked.searchParams.get('response_mode'), toRedirect: action === browser.asked.redirect, fields: Object.keys(fields).sort(), cookie: /HttpOnly/.test(right.headers.get('set-cookie') ?? '') };
      browser.landed = await (await fetch(action, { method: 'POST', body: new URLSearchParams(fields) })).text();
    },
  });
  out.browser = { ...browser, username: interactive.account.username, scopes: interactive.scopes, hasIdToken: !!interactive.idToken };
  console.log(JSON.stringify(out));
})().catch((error) => { console.error(error); process.exit(1); });
`;

// A refresh token of a confidential client is no use without its secret: msal-node's own
// ConfidentialClientApplication redeems it with the right secret and is refused with a wrong one.
const refreshProbe = (
  host: string,
  tenant: string,
  clientId: string,
  secret: string,
  user: { userPrincipalName: string; password: string },
) => `
const msal = require(${JSON.stringify(msalPath)});
const host = ${JSON.stringify(host)};
(async () => {
  const form = new URLSearchParams({ grant_type: 'password', client_id: ${JSON.stringify(clientId)}, client_secret: ${JSON.stringify(secret)}, username: ${JSON.stringify(user.userPrincipalName)}, password: ${JSON.stringify(user.password)}, scope: 'Calendars.Read offline_access' });
  const { refresh_token: refreshToken } = await (await fetch('https://' + host + '/${tenant}/oauth2/v2.0/token', { method: 'POST', body: form })).json();
  const app = (clientSecret) => new msal.ConfidentialClientApplication({ auth: { clientId: ${JSON.stringify(clientId)}, clientSecret, authority: 'https://' + host + '/${tenant}', knownAuthorities: [host] } });
  const out = {};
  try {
    await app('not-the-secret').acquireTokenByRefreshToken({ refreshToken, scopes: ['Calendars.Read'] });
    out.wrong = 'token issued';
  } catch (error) {
    out.wrong = { errorCode: error.errorCode, aadsts: /AADSTS\\d+/.exec(error.errorMessage ?? '')?.[0] };
  }
  const right = await app(${JSON.stringify(secret)}).acquireTokenByRefreshToken({ refreshToken, scopes: ['Calendars.Read'] });
  out.right = { hasToken: !!right.accessToken, username: right.account.username };
  console.log(JSON.stringify(out));
})().catch((error) => { console.error(error); process.exit(1); });
`;

describe('msal-node with the emulator as its authority', () => {
  it("a confidential client's refresh token needs its secret (ConfidentialClientApplication.acquireTokenByRefreshToken)", async () => {
    const host = `localhost:${emu.emulator.port}`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['-e', refreshProbe(host, emu.tenant, emu.app.clientId, emu.app.clientSecret, emu.user)],
      {
        env: { ...process.env, NODE_EXTRA_CA_CERTS: join(emu.dataDir, 'directory', 'tls', 'ca.pem') },
        timeout: 60_000,
      },
    );
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(out.wrong).toEqual({ errorCode: 'invalid_client', aadsts: 'AADSTS7000215' });
    expect(out.right).toEqual({ hasToken: true, username: emu.user.userPrincipalName });
  });

  it('discovers the endpoints, gets app-only tokens, signs a person in with a device code and through the browser (auth code + PKCE), and renews with the refresh token', async () => {
    const host = `localhost:${emu.emulator.port}`;
    const domain = emu.user.userPrincipalName.split('@')[1]!;
    const run = promisify(execFile);
    const { stdout } = await run(
      process.execPath,
      ['-e', script(host, emu.tenant, domain, emu.app.clientId, emu.app.clientSecret, emu.user)],
      {
        env: { ...process.env, NODE_EXTRA_CA_CERTS: join(emu.dataDir, 'directory', 'tls', 'ca.pem') },
        timeout: 60_000,
      },
    );
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(out.appOnly.tokenType).toBe('Bearer');
    expect(out.appOnly.users).toContain(emu.user.userPrincipalName);
    expect(out.device.shown).toMatchObject({ verificationUri: `https://${host}/devicelogin`, codeLength: 9, refused: 401, signedIn: true });
    expect(out.device.shown.message).toContain(`https://${host}/devicelogin`);
    expect(out.device).toMatchObject({
      username: emu.user.userPrincipalName,
      tenantId: emu.tenant,
      me: emu.user.userPrincipalName,
      renewed: true,
      fromCache: false,
    });
    expect(out.device.scopes).toEqual(expect.arrayContaining(['Calendars.Read', 'User.Read']));
    expect(out.browser.asked).toMatchObject({ challengeMethod: 'S256', hasChallenge: true });
    expect(out.browser.asked.redirect).toMatch(/^http:\/\/localhost:\d+\/?$/);
    expect(out.browser.page).toEqual({ app: 'Relay Console tests', permissions: ['Calendars.Read'] });
    expect(out.browser.wrong).toEqual({ status: 200, said: 'Your account or password is incorrect.' });
    expect(out.browser.back).toEqual({
      status: 200,
      mode: 'form_post',
      toRedirect: true,
      fields: ['client_info', 'code', 'session_state', 'state'],
      cookie: true,
    });
    expect(out.browser.landed).toBe('signed in');
    expect(out.browser).toMatchObject({ username: emu.user.userPrincipalName, hasIdToken: true });
    expect(out.browser.scopes).toContain('Calendars.Read');
  });
});
