import { describe, expect, it } from 'vitest';
import { tokenClaims } from './token-claims';

const jwt = (claims: Record<string, unknown>) =>
  `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;

describe('tokenClaims', () => {
  it('reads a delegated token: scopes, person, expiry', () => {
    expect(
      tokenClaims(jwt({ scp: 'User.Read Calendars.Read', exp: 1_800_000_000, name: 'Alex', upn: 'alex@contoso.com', idtyp: 'user' })),
    ).toEqual({
      scopes: ['Calendars.Read', 'User.Read'],
      appOnly: false,
      expiresAt: '2027-01-15T08:00:00.000Z',
      name: 'Alex',
      userPrincipalName: 'alex@contoso.com',
    });
  });

  it('reads an app-only token by its roles', () => {
    expect(tokenClaims(jwt({ roles: ['EntitlementManagement.Read.All'], idtyp: 'app', exp: 1_800_000_000 }))).toMatchObject({
      scopes: ['EntitlementManagement.Read.All'],
      appOnly: true,
      name: null,
    });
  });

  it('says nothing about an opaque or damaged token', () => {
    expect(tokenClaims('opaque-token')).toBeNull();
    expect(tokenClaims('a.%%%.c')).toBeNull();
  });
});
