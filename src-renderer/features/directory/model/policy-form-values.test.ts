import { describe, expect, it } from 'vitest';
import type { AssignmentPolicy } from '@shared/contract/directory';
import { validatePolicyBody } from '@shared/directory/policy-validation';
import { GRAPH_DOCS_UPDATE_BODY_TEXT } from '@shared/directory/policy-fixtures';
import { policyDiff } from './policy-diff';
import { duplicatePolicyValues, newPolicyValues, policyFormValues } from './policy-form-values';
import { bodyToSend } from './policy-resolver';

const read: AssignmentPolicy = {
  id: 'p1',
  displayName: 'Employees',
  description: null,
  createdDateTime: '2025-01-01T00:00:00Z',
  modifiedDateTime: '2025-01-02T00:00:00Z',
  allowedTargetScope: 'allMemberUsers',
  specificAllowedTargets: [],
  expiration: { type: 'afterDuration', duration: 'P365D' },
  requestorSettings: { enableTargetsToSelfAddAccess: true },
  requestApprovalSettings: null,
  reviewSettings: null,
  questions: [{ '@odata.type': '#microsoft.graph.accessPackageTextInputQuestion', id: 'q1', text: 'Why?', sequence: 0 }],
  customExtensionStageSettings: [
    { id: 's1', stage: 'assignmentRequestCreated', customExtension: { id: 'e1', displayName: 'Ticket', endpointConfiguration: {} } },
  ],
  accessPackage: { id: 'pkg', displayName: 'Marketing' },
};

describe('policy form values', () => {
  it('reduce a policy read from Graph to a body the shared validation accepts', () => {
    const values = policyFormValues(read);
    expect(values.accessPackage).toEqual({ id: 'pkg' });
    expect(values.customExtensionStageSettings).toEqual([{ id: 's1', stage: 'assignmentRequestCreated', customExtension: { id: 'e1' } }]);
    expect(values.expiration).toEqual({ type: 'afterDuration', duration: 'P365D', endDateTime: null });
    expect(values.requestorSettings.enableTargetsToSelfAddAccess).toBe(true);
    expect(values.requestorSettings.onBehalfRequestors).toEqual([]);
    expect(validatePolicyBody(values).problems).toEqual([]);
  });

  it('keep a policy without reviewSettings or questions without them: loaded, edited, reviewed and sent as Graph documents it', () => {
    // Microsoft's documented update body, as Graph would hand it back.
    const documented = JSON.parse(GRAPH_DOCS_UPDATE_BODY_TEXT) as AssignmentPolicy;
    const values = policyFormValues(documented);
    for (const left of ['reviewSettings', 'questions', 'notificationSettings']) expect(values, left).not.toHaveProperty(left);
    expect(validatePolicyBody(values).problems).toEqual([]);

    const edited = { ...values, description: 'Everyone in the directory may ask.' };
    const sent = bodyToSend(edited) as Record<string, unknown>;
    expect(sent).not.toHaveProperty('reviewSettings');
    expect(sent).not.toHaveProperty('questions');
    expect(policyDiff(bodyToSend(values), sent)).toEqual([
      { path: 'description', kind: 'changed', before: documented.description, after: 'Everyone in the directory may ask.' },
    ]);
    // A copy of it has no questions to strip of their ids either.
    expect(duplicatePolicyValues(documented)).not.toHaveProperty('questions');
  });

  it('keep reviewSettings that Graph answers as null as null', () => {
    expect(policyFormValues({ ...read, reviewSettings: null }).reviewSettings).toBeNull();
  });

  it('start a new policy that is valid once it has a name', () => {
    const values = newPolicyValues('pkg');
    expect(validatePolicyBody(values).problems.map((p) => p.path)).toEqual(['displayName']);
    expect(validatePolicyBody({ ...values, displayName: 'Guests' }).problems).toEqual([]);
  });

  it('duplicate without ids, so the copy is a new policy', () => {
    const copy = duplicatePolicyValues(read);
    expect(copy.id).toBeUndefined();
    expect(copy.displayName).toBe('Employees (copy)');
    expect(copy.questions![0]!.id).toBeUndefined();
    expect(copy.customExtensionStageSettings![0]).toEqual({ stage: 'assignmentRequestCreated', customExtension: { id: 'e1' } });
  });
});
