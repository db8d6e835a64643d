import { describe, expect, it } from 'vitest';
import { redactGraphUrl } from './redact-graph-url';

describe('redactGraphUrl', () => {
  it('hides delta and skip tokens but keeps the rest of the query readable', () => {
    expect(
      redactGraphUrl(
        'https://graph.microsoft.com/v1.0/me/calendarView/delta?$deltatoken=R0usmci39OQxqJrxK4&startDateTime=2025-05-01T00:00:00Z',
      ),
    ).toBe('https://graph.microsoft.com/v1.0/me/calendarView/delta?$deltatoken=…&startDateTime=2025-05-01T00:00:00Z');
    expect(redactGraphUrl('http://127.0.0.1:1986/v1.0/users/x/calendarView/delta?%24skiptoken=abc')).toBe(
      'http://127.0.0.1:1986/v1.0/users/x/calendarView/delta?$skiptoken=…',
    );
  });

  it('keeps $select, $expand and $filter as written', () => {
    expect(redactGraphUrl('https://graph.microsoft.com/v1.0/x?$expand=target($select=id,displayName)&$filter=a%20eq%20%27b%26c%27')).toBe(
      "https://graph.microsoft.com/v1.0/x?$expand=target($select=id,displayName)&$filter=a%20eq%20'b%26c'",
    );
    expect(
      redactGraphUrl(
        "https://graph.microsoft.com/v1.0/identityGovernance/entitlementManagement/assignments?$expand=target,accessPackage&$filter=state eq 'delivered'",
      ),
    ).toBe(
      "https://graph.microsoft.com/v1.0/identityGovernance/entitlementManagement/assignments?$expand=target,accessPackage&$filter=state%20eq%20'delivered'",
    );
  });

  it('drops user info and secrets of sign-in URLs', () => {
    expect(redactGraphUrl('https://user:pw@login.example/t/oauth2?code=abc&client_secret=s3&state=1')).toBe(
      'https://login.example/t/oauth2?code=…&client_secret=…&state=1',
    );
    expect(redactGraphUrl('not a url')).toBe('…');
  });
});
