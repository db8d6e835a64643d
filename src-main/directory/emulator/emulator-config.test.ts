import { describe, expect, it } from 'vitest';
import { parseDirectorySection } from './emulator-config';

describe('directory.emulator config', () => {
  it('has defaults when the section is absent', () => {
    expect(parseDirectorySection(undefined)).toEqual({ enabled: true, listen: '127.0.0.1:1986', token_lifetime_seconds: 3600, change_log_limit: 5000, demo_data: true, tls: { enabled: true, names: [] } });
  });

  it('keeps other keys of the directory section for other features', () => {
    expect(parseDirectorySection({ client: { base_url: 'https://graph.microsoft.com' }, emulator: { listen: '127.0.0.1:0' } }).listen).toBe('127.0.0.1:0');
  });

  it('names the offending key', () => {
    expect(() => parseDirectorySection({ emulator: { listen: 'nowhere' } })).toThrow(/^config directory\.emulator\.listen: expected host:port/);
    expect(() => parseDirectorySection({ emulator: { users: [{ userPrincipalName: 'carol', password: 'x' }] } })).toThrow(/directory\.emulator\.users\.0\.userPrincipalName: expected name@domain/);
    expect(() => parseDirectorySection({ emulator: { faults: { rate_limit_every: 0 } } })).toThrow(/directory\.emulator\.faults\.rate_limit_every/);
    expect(() => parseDirectorySection({ emulator: { colour: 'red' } })).toThrow(/directory\.emulator/);
  });
});
