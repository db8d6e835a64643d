import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDirectoryEmulator, TEST_TENANT, userTokenForm, type TestDirectoryEmulator } from './test-support';

// Sign-in URLs name a tenant by its id or by one of its domain names, as Entra takes them:
// `https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/token`.
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

async function tokenAt(t: TestDirectoryEmulator, tenant: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const reply = await fetch(`${t.url}/${tenant}/oauth2/v2.0/token`, { method: 'POST', body: new URLSearchParams(userTokenForm()) });
  return { status: reply.status, body: (await reply.json()) as Record<string, unknown> };
}

describe('tenant domain names', () => {
  let configured: TestDirectoryEmulator;
  let derived: TestDirectoryEmulator;
  beforeAll(async () => {
    configured = await startTestDirectoryEmulator({ domains: ['contoso.onmicrosoft.com', 'contoso.com'] });
    derived = await startTestDirectoryEmulator();
  });
  afterAll(async () => {
    await configured.close();
    await derived.close();
  });

  it('configured domains resolve to the tenant, in any case, for tokens and discovery', async () => {
    for (const domain of ['contoso.onmicrosoft.com', 'Contoso.OnMicrosoft.com', 'contoso.com']) {
      const reply = await tokenAt(configured, domain);
      expect({ domain, status: reply.status }).toEqual({ domain, status: 200 });
      expect(claimsOf(reply.body.access_token as string).tid).toBe(TEST_TENANT);
    }
    const discovery = await fetch(`${configured.url}/contoso.onmicrosoft.com/v2.0/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect(((await discovery.json()) as { issuer: string }).issuer).toContain(TEST_TENANT);
    // The users' own domain stays one of the tenant's.
    expect((await tokenAt(configured, 'emulator.test')).status).toBe(200);
  });

  it("without configured domains, the initial <name>.onmicrosoft.com is named after the first user's domain", async () => {
    expect((await tokenAt(derived, 'emulator.onmicrosoft.com')).status).toBe(200);
    expect((await tokenAt(derived, 'emulator.test')).status).toBe(200);
  });

  it('another domain is an unknown tenant (AADSTS90002)', async () => {
    const reply = await tokenAt(configured, 'fabrikam.onmicrosoft.com');
    expect(reply).toMatchObject({ status: 400, body: { error: 'invalid_request', error_codes: [90002] } });
  });
});
