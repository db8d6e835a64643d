import { describe, expect, it } from 'vitest';
import type { SignInStatus } from '@shared/contract/directory-accounts';
import { expiresInText, signInSummary } from './sign-in-text';

const status = (over: Partial<SignInStatus>): SignInStatus => ({
  connection: null,
  state: 'signedIn',
  user: null,
  appOnly: false,
  scopes: [],
  expiresAt: null,
  deviceCode: null,
  signInUrl: null,
  error: null,
  ...over,
});

describe('sign-in text', () => {
  it('names who is signed in, or says the app acts alone', () => {
    expect(signInSummary(status({ user: { displayName: 'Alex', userPrincipalName: 'alex@contoso.com' } }))).toBe(
      'Signed in as Alex (alex@contoso.com)',
    );
    expect(signInSummary(status({ user: { displayName: null, userPrincipalName: 'alex@contoso.com' } }))).toBe(
      'Signed in as alex@contoso.com',
    );
    expect(signInSummary(status({ appOnly: true }))).toMatch(/^App-only access/);
    expect(
      signInSummary(status({ state: 'signingIn', deviceCode: { userCode: 'X', verificationUri: 'u', message: 'm', expiresAt: 'e' } })),
    ).toBe('Waiting for the code to be entered');
    expect(signInSummary(status({ state: 'signedOut' }))).toMatch(/^Signed out/);
  });

  it('says when the token expires', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(expiresInText('2026-01-01T00:59:30Z', now)).toBe('in 60 minutes');
    expect(expiresInText('2026-01-01T00:01:00Z', now)).toBe('in 1 minute');
    expect(expiresInText('2026-01-01T05:00:00Z', now)).toBe('in 5 hours');
    expect(expiresInText('2025-12-31T00:00:00Z', now)).toBe('expired');
  });
});
