import { describe, expect, it } from 'vitest';
import { credentialsIn, loginRequired, sameLogin, withoutQuery } from './publish-login';
import { publishTarget } from './publish-session';

describe('RTMP publish login', () => {
  const login = { username: 'pub', password: 's3cret&pw', localAuth: false };

  it('reads user and pass (or password) from a stream key or app query, percent-decoded', () => {
    expect(credentialsIn('garage?user=pub&pass=s3cret%26pw')).toEqual({ user: 'pub', pass: 's3cret&pw' });
    expect(credentialsIn('live?user=pub&password=x')).toEqual({ user: 'pub', pass: 'x' });
    // ffmpeg appends its own query to an app that already had one: a second ? counts as &.
    expect(credentialsIn('live?x=1?user=pub&pass=p')).toEqual({ user: 'pub', pass: 'p' });
    expect(credentialsIn('garage')).toBeUndefined();
    expect(credentialsIn('garage?pass=p')).toBeUndefined();
  });

  it('compares both parts exactly', () => {
    expect(sameLogin({ user: 'pub', pass: 's3cret&pw' }, login)).toBe(true);
    expect(sameLogin({ user: 'pub', pass: 's3cret' }, login)).toBe(false);
    expect(sameLogin({ user: 'Pub', pass: 's3cret&pw' }, login)).toBe(false);
    expect(sameLogin({ user: 'pub', pass: 's3cret&pw ' }, login)).toBe(false);
  });

  it('asks for it as the RTSP server does: with a username set, from other machines, and from this one with local_auth', () => {
    expect(loginRequired(undefined, '192.168.1.5')).toBe(false);
    expect(loginRequired({ ...login, username: '' }, '192.168.1.5')).toBe(false);
    expect(loginRequired(login, '192.168.1.5')).toBe(true);
    expect(loginRequired(login, '::ffff:127.0.0.1')).toBe(false);
    expect(loginRequired({ ...login, localAuth: true }, '127.0.0.1')).toBe(true);
  });

  it('never lets the query (where the password travels) into a stream name or a log line', () => {
    expect(withoutQuery('garage?user=pub&pass=p')).toBe('garage');
    expect(publishTarget('live', 'garage?user=pub&pass=p', (name) => name === 'garage')).toBe('garage');
    expect(publishTarget('garage?user=pub&pass=p', '', (name) => name === 'garage')).toBe('garage');
  });
});
