import { describe, expect, it } from 'vitest';
import { errorPaths, graphFieldError, problemsPerTab, problemsToErrors, tabOfPath } from './policy-problems';

describe('policy problems', () => {
  it('nests problems under the form’s own paths, first one per field', () => {
    const errors = problemsToErrors([
      { path: 'displayName', code: 'required', message: 'displayName must not be empty' },
      { path: 'requestApprovalSettings.stages[0].primaryApprovers', code: 'required', message: 'stage 1 needs an approver' },
      { path: 'requestApprovalSettings.stages[0].primaryApprovers', code: 'other', message: 'second' },
      { path: 'requestApprovalSettings.stages', code: 'tooBig', message: 'at most 3' },
    ]);
    expect(errors).toEqual({
      displayName: { type: 'required', message: 'Must not be empty' },
      requestApprovalSettings: {
        stages: {
          0: { primaryApprovers: { type: 'required', message: 'stage 1 needs an approver' } },
          type: 'tooBig',
          message: 'at most 3',
        },
      },
    });
    expect(errorPaths(errors).sort()).toEqual([
      'displayName',
      'requestApprovalSettings.stages',
      'requestApprovalSettings.stages.0.primaryApprovers',
    ]);
  });

  it('does not repeat the field’s path under the field', () => {
    expect(problemsToErrors([{ path: 'expiration.duration', code: 'required', message: 'expiration.duration is required' }])).toEqual({
      expiration: { duration: { type: 'required', message: 'Is required' } },
    });
    expect(
      problemsToErrors([
        { path: 'expiration.duration', code: 'required', message: 'expiration type afterDuration needs a duration, e.g. P365D' },
      ]),
    ).toEqual({
      expiration: { duration: { type: 'required', message: 'expiration type afterDuration needs a duration, e.g. P365D' } },
    });
  });

  it('points Graph’s InvalidModel message at its field, and leaves other errors to the form as a whole', () => {
    const message = "The model is invalid. requestApprovalSettings.stages.0.primaryApprovers.0.userId: no user 'x' in the directory";
    expect(graphFieldError(message)).toEqual({ path: 'requestApprovalSettings.stages.0.primaryApprovers.0.userId', message });
    expect(graphFieldError("The property 'colour' does not exist on type 'microsoft.graph.accessPackageAssignmentPolicy'.")).toBeNull();
  });

  it('knows which tab holds a field', () => {
    expect(tabOfPath('requestApprovalSettings.stages[1].escalationApprovers')).toBe('approval');
    expect(tabOfPath('requestorSettings.enableTargetsToSelfUpdateAccess')).toBe('lifecycle');
    expect(tabOfPath('requestorSettings.onBehalfRequestors.0.userId')).toBe('requests');
    expect(tabOfPath('expiration.duration')).toBe('lifecycle');
    expect(tabOfPath('questions.0.choices')).toBe('questions');
    expect(tabOfPath('displayName')).toBe('basics');
    expect(problemsPerTab(['displayName', 'questions.0.text', 'questions.1.text'])).toEqual({ basics: 1, questions: 2 });
  });
});
