import { describe, expect, it } from 'vitest';
import { newTenantSchema } from '@shared/contract/directory-accounts';
import { ContractFailure } from '@shared/contract/result';
import { EMPTY_TENANT, registrationNeeds, tenantFieldErrors, tenantToSend } from './tenant-form';

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

  it('takes a CA file as the full path of a file on this computer, or none', () => {
    expect(problems({ ...valid, caFile: '' })).toEqual({});
    expect(problems({ ...valid, caFile: undefined })).toEqual({});
    expect(problems({ ...valid, caFile: '/etc/ssl/certs/corporate-ca.pem' })).toEqual({});
    expect(problems({ ...valid, caFile: 'C:\\certs\\corporate-ca.pem' })).toEqual({});
    expect(problems({ ...valid, caFile: 'corporate-ca.pem' })).toEqual({ caFile: expect.stringContaining('the full path of a PEM file') });
  });

  it('places main’s refusal of a CA file at that field, and leaves other refusals to the banner', () => {
    const refused = new ContractFailure('invalid_input', 'the tenant was not added: cannot read /x.pem: no such file', {
      problems: [{ path: 'caFile', code: 'unreadable', message: 'cannot read /x.pem: no such file' }],
    });
    expect(tenantFieldErrors(refused)).toEqual([{ field: 'caFile', message: 'cannot read /x.pem: no such file' }]);
    expect(tenantFieldErrors(new ContractFailure('invalid_input', 'the tenant was not added: no app-only token'))).toEqual([]);
    expect(tenantFieldErrors(new ContractFailure('invalid_input', 'odd', { problems: [{ path: 'somethingElse', message: 'x' }] }))).toEqual(
      [],
    );
    expect(tenantFieldErrors(new Error('network'))).toEqual([]);
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
