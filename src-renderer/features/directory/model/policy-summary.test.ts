import { describe, expect, it } from 'vitest';
import { approvalSummary, durationText, expirationSummary, targetScopeLabel } from './policy-summary';

describe('policy summary', () => {
  it('says who may request, in the admin center’s words', () => {
    expect(targetScopeLabel('allMemberUsers')).toBe('All members (excluding guests)');
    expect(targetScopeLabel(undefined)).toBe('No one (requests off)');
    expect(targetScopeLabel('somethingNew')).toBe('somethingNew');
  });

  it('counts approval stages only when approval is required', () => {
    expect(approvalSummary({ requestApprovalSettings: { isApprovalRequiredForAdd: true, stages: [{}, {}] } })).toBe('2 stages');
    expect(approvalSummary({ requestApprovalSettings: { isApprovalRequiredForAdd: true, stages: [{}] } })).toBe('1 stage');
    expect(approvalSummary({ requestApprovalSettings: { isApprovalRequiredForAdd: false, stages: [{}] } })).toBe('No approval');
    expect(approvalSummary({ requestApprovalSettings: null })).toBe('No approval');
  });

  it('describes the expiration', () => {
    expect(expirationSummary({ expiration: { type: 'afterDuration', duration: 'P365D' } })).toBe('After 365 days');
    expect(expirationSummary({ expiration: { type: 'afterDuration', duration: 'PT1H' } })).toBe('After 1 hour');
    expect(expirationSummary({ expiration: { type: 'afterDateTime', endDateTime: '2026-03-01T00:00:00Z' } })).toBe('On 2026-03-01');
    expect(expirationSummary({ expiration: { type: 'noExpiration' } })).toBe('Never');
    expect(durationText('P1M')).toBe('P1M');
  });
});
