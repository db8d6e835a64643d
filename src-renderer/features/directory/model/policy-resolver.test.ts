import { describe, expect, it } from 'vitest';
import type { AssignmentPolicyBody } from '@shared/contract/directory';
import { newPolicyValues } from './policy-form-values';
import { bodyToSend, policyResolver } from './policy-resolver';

const resolve = (values: AssignmentPolicyBody) => policyResolver(values, undefined, { fields: {}, shouldUseNativeValidation: false });

describe('policyResolver', () => {
  it('passes a valid body through as it will be sent', async () => {
    const values = { ...newPolicyValues('pkg'), displayName: 'Guests' };
    expect(await resolve(values)).toEqual({ values: bodyToSend(values), errors: {} });
  });

  it('puts the shared rules’ messages at the fields they are about', async () => {
    const values = newPolicyValues('pkg');
    const stage = { primaryApprovers: [], isEscalationEnabled: true, escalationApprovers: [] };
    const result = await resolve({
      ...values,
      displayName: 'x',
      requestApprovalSettings: { isApprovalRequiredForAdd: true, stages: [stage] },
    });
    expect(result.values).toEqual({});
    expect(result.errors).toMatchObject({
      requestApprovalSettings: {
        stages: {
          0: {
            primaryApprovers: { message: 'Approval stage 1 needs at least one approver' },
            escalationApprovers: { message: 'Approval stage 1 escalates: add at least one escalation approver' },
          },
        },
      },
    });
  });
});
