import { describe, expect, it } from 'vitest';
import { parseDirectorySection } from './emulator-config';

describe('directory.emulator config', () => {
  it('has defaults when the section is absent', () => {
    expect(parseDirectorySection(undefined)).toEqual({
      enabled: true,
      listen: '127.0.0.1:1986',
      token_lifetime_seconds: 3600,
      change_log_limit: 5000,
      demo_data: true,
      tls: { enabled: true, names: [] },
    });
  });

  it('keeps other keys of the directory section for other features', () => {
    expect(parseDirectorySection({ client: { base_url: 'https://graph.microsoft.com' }, emulator: { listen: '127.0.0.1:0' } }).listen).toBe(
      '127.0.0.1:0',
    );
  });

  it("takes the tenant's domain names and users' roles, refusing a role it does not know", () => {
    const parsed = parseDirectorySection({
      emulator: {
        domains: ['contoso.onmicrosoft.com'],
        users: [{ userPrincipalName: 'carol@contoso.example', password: 'x', roles: ['Identity Governance Administrator'] }],
      },
    });
    expect(parsed.domains).toEqual(['contoso.onmicrosoft.com']);
    expect(parsed.users?.[0]?.roles).toEqual(['Identity Governance Administrator']);
    expect(() =>
      parseDirectorySection({ emulator: { users: [{ userPrincipalName: 'carol@contoso.example', password: 'x', roles: ['Chief'] }] } }),
    ).toThrow(/directory\.emulator\.users\.0\.roles\.0/);
    expect(() => parseDirectorySection({ emulator: { domains: ['not a domain'] } })).toThrow(
      /directory\.emulator\.domains\.0: expected a domain name/,
    );
  });

  it('names the offending key', () => {
    expect(() => parseDirectorySection({ emulator: { listen: 'nowhere' } })).toThrow(
      /^config directory\.emulator\.listen: expected host:port/,
    );
    expect(() => parseDirectorySection({ emulator: { users: [{ userPrincipalName: 'carol', password: 'x' }] } })).toThrow(
      /directory\.emulator\.users\.0\.userPrincipalName: expected name@domain/,
    );
    expect(() => parseDirectorySection({ emulator: { faults: { rate_limit_every: 0 } } })).toThrow(
      /directory\.emulator\.faults\.rate_limit_every/,
    );
    expect(() => parseDirectorySection({ emulator: { colour: 'red' } })).toThrow(/directory\.emulator/);
  });
});
