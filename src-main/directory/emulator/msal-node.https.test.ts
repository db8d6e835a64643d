import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDirectoryEmulator, type TestDirectoryEmulator } from './test-support';

// msal-node, Microsoft's own sign-in library, against the emulator as its authority, with
// nothing set but the authority and knownAuthorities: OpenID discovery, client credentials,
// a device code sign-in completed on the emulator's sign-in page, and a refresh. In a process
// of its own that trusts the emulator's local CA (msal asks for https).
let emu: TestDirectoryEmulator;
beforeAll(async () => {
  emu = await startTestDirectoryEmulator();
});
afterAll(() => emu.close());

const msalPath = createRequire(import.meta.url).resolve('@azure/msal-node');

const script = (host: string, tenant: string, domain: string, clientId: string, secret: string, user: { userPrincipalName: string; password: string }) => `
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
  console.log(JSON.stringify(out));
})().catch((error) => { console.error(error); process.exit(1); });
`;

describe('msal-node with the emulator as its authority', () => {
  it('discovers the endpoints, gets app-only tokens, signs a person in with a device code and renews with the refresh token', async () => {
    const host = `localhost:${emu.emulator.port}`;
    const domain = emu.user.userPrincipalName.split('@')[1]!;
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ['-e', script(host, emu.tenant, domain, emu.app.clientId, emu.app.clientSecret, emu.user)], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: join(emu.dataDir, 'directory', 'tls', 'ca.pem') },
      timeout: 60_000,
    });
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(out.appOnly.tokenType).toBe('Bearer');
    expect(out.appOnly.users).toContain(emu.user.userPrincipalName);
    expect(out.device.shown).toMatchObject({ verificationUri: `https://${host}/devicelogin`, codeLength: 9, refused: 401, signedIn: true });
    expect(out.device.shown.message).toContain(`https://${host}/devicelogin`);
    expect(out.device).toMatchObject({ username: emu.user.userPrincipalName, tenantId: emu.tenant, me: emu.user.userPrincipalName, renewed: true, fromCache: false });
    expect(out.device.scopes).toEqual(expect.arrayContaining(['Calendars.Read', 'User.Read']));
  });
});
