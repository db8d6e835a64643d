import { describe, expect, it } from 'vitest';
import { newTenantSchema } from '../../../../src-shared/contract/directory-accounts';
import { EMPTY_TENANT, registrationNeeds, tenantToSend } from './tenant-form';

const valid = { ...EMPTY_TENANT, tenant: 'contoso.onmicrosoft.com', clientId: '11111111-2222-3333-4444-555555555555' };
const problems = (value: unknown) => {
  const parsed = newTenantSchema.safeParse(value);
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
};

describe('tenant form', () => {
  it('accepts a domain or a GUID tenant, and organizations for a person signing in', () => {
    expect(problems(valid)).toEqual({});
    expect(problems({ ...valid, tenant: '72f988bf-86f1-41af-91ab-2d7cd011db47' })).toEqual({});
    expect(problems({ ...valid, tenant: 'organizations', signIn: 'deviceCode' })).toEqual({});
  });

  it('names each wrong field with what was expected', () => {
    expect(problems({ ...valid, tenant: 'contoso', clientId: 'my-app' })).toEqual({
      tenant: expect.stringContaining('a tenant id (a GUID) or a domain'),
      clientId: expect.stringContaining('a GUID'),
    });
    expect(problems({ ...valid, signIn: 'clientCredentials', tenant: 'common' })).toEqual({
      clientSecret: expect.stringContaining('required for client credentials'),
      tenant: expect.stringContaining('app-only access needs one tenant'),
    });
  });

  it('sends secrets over https, or plain http to this computer only', () => {
    expect(problems({ ...valid, authorityHost: 'http://login.example.com' })).toEqual({ authorityHost: expect.stringContaining('https') });
    expect(problems({ ...valid, authorityHost: 'http://127.0.0.1:1986', graphBaseUrl: 'http://localhost:1986/v1.0' })).toEqual({});
    expect(problems({ ...valid, graphBaseUrl: 'graph' })).toEqual({ graphBaseUrl: expect.stringContaining('https') });
  });

  it('drops a secret typed before another sign-in kind was chosen', () => {
    expect(tenantToSend({ ...valid, signIn: 'authCode', clientSecret: 'typed' }).clientSecret).toBe('');
    expect(tenantToSend({ ...valid, signIn: 'clientCredentials', clientSecret: 'typed' }).clientSecret).toBe('typed');
  });

  it('says what the app registration needs for each kind', () => {
    expect(registrationNeeds('authCode')[0]).toContain('http://localhost');
    expect(registrationNeeds('deviceCode')[0]).toContain('Allow public client flows');
    expect(registrationNeeds('clientCredentials').join(' ')).toContain('admin consent');
  });
});
