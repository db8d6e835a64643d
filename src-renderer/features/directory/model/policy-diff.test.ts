import { describe, expect, it } from 'vitest';
import { policyDiff } from './policy-diff';

describe('policyDiff', () => {
  it('lists changed leaves by their path, nothing else', () => {
    const before = { displayName: 'A', expiration: { type: 'afterDuration', duration: 'P365D' }, questions: [{ text: 'Why?' }] };
    const after = { displayName: 'B', expiration: { type: 'afterDuration', duration: 'P90D' }, questions: [{ text: 'Why?' }] };
    expect(policyDiff(before, after)).toEqual([
      { path: 'displayName', kind: 'changed', before: 'A', after: 'B' },
      { path: 'expiration.duration', kind: 'changed', before: 'P365D', after: 'P90D' },
    ]);
  });

  it('reports an added or removed list item once, whole', () => {
    const stage = { durationBeforeAutomaticDenial: 'P14D', primaryApprovers: [] };
    expect(policyDiff({ stages: [stage] }, { stages: [stage, { ...stage, durationBeforeAutomaticDenial: 'P2D' }] })).toEqual([
      { path: 'stages[1]', kind: 'added', after: { durationBeforeAutomaticDenial: 'P2D', primaryApprovers: [] } },
    ]);
    expect(policyDiff({ stages: [stage] }, { stages: [] })).toEqual([{ path: 'stages[0]', kind: 'removed', before: stage }]);
  });

  it('treats missing and null as the same (a PUT reads a missing property as null)', () => {
    expect(policyDiff({ reviewSettings: null, a: undefined }, { b: null })).toEqual([]);
    expect(policyDiff({ reviewSettings: null }, { reviewSettings: { isEnabled: true } })).toEqual([
      { path: 'reviewSettings', kind: 'added', after: { isEnabled: true } },
    ]);
    expect(policyDiff({ flag: false }, { flag: true })).toEqual([{ path: 'flag', kind: 'changed', before: false, after: true }]);
  });
});
