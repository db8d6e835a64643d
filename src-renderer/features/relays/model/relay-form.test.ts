import { describe, expect, it } from 'vitest';
import type { RelayInfo } from '@shared/contract/relays';
import { ContractFailure } from '@shared/contract/result';
import { EMPTY_RELAY, addressWithoutLogin, relayFieldError, relayFormSchema, toAddInput, toEditInput, toTestInput } from './relay-form';

const problems = (value: unknown) => {
  const parsed = relayFormSchema.safeParse(value);
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
};

const saved: RelayInfo = {
  name: 'north',
  url: 'http://10.0.0.5:1984',
  hasLogin: true,
  username: 'admin',
  origin: 'console',
  state: 'reachable',
  sinceMs: 0,
};

describe('relay form', () => {
  it('accepts a name and an http(s) address, with or without a login', () => {
    expect(problems({ ...EMPTY_RELAY, name: 'north', url: 'http://10.0.0.5:1984' })).toEqual({});
    expect(problems({ name: 'site-2', url: 'https://relay.example', username: 'admin', password: 'pw' })).toEqual({});
  });

  it('names each wrong field with what is expected', () => {
    expect(problems({ ...EMPTY_RELAY, name: 'local', url: 'rtsp://cam' })).toEqual({
      name: expect.stringContaining('embedded relay'),
      url: expect.stringContaining('http:// or https://'),
    });
    expect(problems({ ...EMPTY_RELAY, name: 'my relay', url: 'http://h' })).toEqual({ name: expect.stringContaining('letters, digits') });
    expect(problems({ ...EMPTY_RELAY, name: 'n', url: 'http://h', password: 'pw' })).toEqual({ username: 'a password needs a username' });
  });

  it('takes a login out of the address, so it is sealed like a typed one', () => {
    expect(addressWithoutLogin(' http://admin:s%40cret@10.0.0.5:1984/ ')).toBe('http://10.0.0.5:1984/');
    expect(toAddInput({ name: ' north ', url: 'http://admin:s%40cret@10.0.0.5:1984', username: '', password: '' })).toEqual({
      name: 'north',
      url: 'http://10.0.0.5:1984',
      login: { username: 'admin', password: 's@cret' },
    });
    // The fields win over the address.
    expect(toTestInput({ name: 'n', url: 'http://a:b@h:1984', username: 'ops', password: 'pw' })).toEqual({
      url: 'http://h:1984',
      login: { username: 'ops', password: 'pw' },
    });
    expect(toTestInput({ ...EMPTY_RELAY, url: 'http://h:1984' })).toEqual({ url: 'http://h:1984' });
  });

  it.each<[string, { name?: string; url?: string; username?: string; password?: string }, unknown]>([
    ['nothing changed keeps the login', {}, { name: 'north' }],
    ['a rename', { name: 'north-2' }, { name: 'north', newName: 'north-2' }],
    ['a new address', { url: 'http://10.0.0.6:1984' }, { name: 'north', url: 'http://10.0.0.6:1984' }],
    ['a new password', { password: 'new' }, { name: 'north', login: { username: 'admin', password: 'new' } }],
    ['a cleared username forgets the login', { username: '' }, { name: 'north', login: null }],
    ['a new username needs its password', { username: 'ops' }, { problem: { field: 'password', message: 'type the password of ops' } }],
  ])('edit: %s', (_case, change, expected) => {
    const values = { name: 'north', url: 'http://10.0.0.5:1984', username: 'admin', password: '', ...change };
    expect(toEditInput(values, saved)).toEqual(expected);
  });

  it('puts a refusal at the field it is about', () => {
    expect(relayFieldError(new ContractFailure('conflict', 'a relay named north exists'))).toEqual({
      field: 'name',
      message: 'a relay named north exists',
    });
    expect(relayFieldError(new ContractFailure('unauthenticated', 'HTTP 401'))).toMatchObject({ field: 'password' });
    expect(relayFieldError(new ContractFailure('unavailable', 'connection refused'))).toMatchObject({ field: 'url' });
    expect(relayFieldError(new Error('timed out'))).toEqual({ field: 'url', message: 'timed out' });
  });
});
