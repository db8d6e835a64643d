import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDirectoryEmulator, type TestDirectoryEmulator } from '../emulator/test-support';
import { createConnectionTrust } from './connection-trust';
import { createInteractiveTokenProvider, createMsalPublicClient, SHARED_CALENDAR_SCOPES } from './msal-sign-in';

// The console's msal sign-in against the Graph emulator as its authority (https, trusted through
// the emulator's local CA): a device code sign-in asks for the console's scopes, and reading
// another person's calendar asks for Calendars.Read.Shared later, silently through the refresh
// token when the app is consented for it.
let emu: TestDirectoryEmulator;
beforeAll(async () => {
  emu = await startTestDirectoryEmulator();
});
afterAll(() => emu.close());

const scopesOf = (token: string) =>
  String((JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { scp?: string }).scp ?? '').split(' ');

describe('console sign-in against the emulator', () => {
  it('signs in with a device code, then gets a shared-calendar token without asking again', async () => {
    const ca = await readFile(join(emu.dataDir, 'directory', 'tls', 'ca.pem'), 'utf8');
    const authorityHost = `https://localhost:${emu.emulator.port}`;
    const app = await createMsalPublicClient({
      clientId: emu.app.clientId,
      tenant: emu.tenant,
      authorityHost,
      networkClient: createConnectionTrust({ localCas: [ca], userCas: [] }).msalNetwork(authorityHost),
    });
    const codes: string[] = [];
    const provider = createInteractiveTokenProvider({
      app,
      flow: 'deviceCode',
      openBrowser: async () => undefined,
      onDeviceCode: (code) => {
        codes.push(code.userCode);
        // The person, on another device (the page answers plain http on the same port too).
        void fetch(`${emu.url}/devicelogin`, {
          method: 'POST',
          body: new URLSearchParams({ otc: code.userCode, username: emu.user.userPrincipalName, password: emu.user.password }),
        });
      },
    });
    const first = await provider.getToken();
    expect(codes).toHaveLength(1);
    expect(scopesOf(first)).toEqual(
      expect.arrayContaining([
        'EntitlementManagement.ReadWrite.All',
        'AdministrativeUnit.Read.All',
        'User.ReadBasic.All',
        'Calendars.Read',
      ]),
    );
    expect(scopesOf(first)).not.toContain('Calendars.Read.Shared');

    const shared = await provider.withScopes(SHARED_CALENDAR_SCOPES).getToken();
    expect(codes).toHaveLength(1);
    expect(scopesOf(shared)).toContain('Calendars.Read.Shared');
    const other = await fetch(
      `${emu.url}/v1.0/users/bob@emulator.test/calendarView?startDateTime=2031-01-01T00:00:00Z&endDateTime=2031-01-02T00:00:00Z`,
      { headers: { Authorization: `Bearer ${shared}` } },
    );
    const refused = await fetch(
      `${emu.url}/v1.0/users/bob@emulator.test/calendarView?startDateTime=2031-01-01T00:00:00Z&endDateTime=2031-01-02T00:00:00Z`,
      { headers: { Authorization: `Bearer ${first}` } },
    );
    expect([other.status, refused.status]).toEqual([200, 403]);
  });
});
