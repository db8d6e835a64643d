import type { AccessPackageAssignmentPolicy } from '@microsoft/microsoft-graph-types';
import type { directoryPoliciesService, AssignmentPolicy, AssignmentPolicyBody } from '@shared/contract/directory';
import type { ServiceImpl } from '@shared/contract/define-service';
import { ContractFailure } from '@shared/contract/result';
import type { GraphClient } from '../client/graph-client';
import { callGraph } from './graph-failure';
import { validatePolicyBody } from '@shared/directory/policy-validation';

const POLICIES = '/identityGovernance/entitlementManagement/assignmentPolicies';
const policyPath = (id: string) => `${POLICIES}/${encodeURIComponent(id)}`;

/**
 * Graph leaves the access package and the custom extension stages out of a policy unless asked;
 * the editor needs both to save the policy back (a PUT replaces everything).
 */
export const POLICY_EXPAND = 'accessPackage,customExtensionStageSettings($expand=customExtension)';

async function readPolicy(graph: GraphClient, policyId: string): Promise<AccessPackageAssignmentPolicy> {
  return (await graph.request<AccessPackageAssignmentPolicy>({ path: policyPath(policyId), query: { $expand: POLICY_EXPAND } })).body;
}

/** Access-package assignment policies: read, check without sending, replace with a PUT, create, delete. */
export function createPoliciesService(client: () => Promise<GraphClient>): ServiceImpl<typeof directoryPoliciesService> {
  return {
    get: ({ policyId }) => callGraph(async () => (await readPolicy(await client(), policyId)) as AssignmentPolicy),

    validate: async ({ policy }) => ({ problems: validatePolicyBody(policy).problems }),

    update: async ({ policyId, policy }) => {
      const body = checkedBody(policy);
      if (body.id !== undefined && body.id !== policyId) {
        throw new ContractFailure('invalid_input', `the body is policy ${body.id} but the update names policy ${policyId}`, {
          problems: [{ path: 'id', code: 'idMismatch', message: 'id differs from the policy being updated' }],
        });
      }
      return callGraph(async () => {
        const answer = await (
          await client()
        ).request<AccessPackageAssignmentPolicy | undefined>({ method: 'PUT', path: policyPath(policyId), body });
        // Graph may shorten the answer, or send none; the caller still gets the policy it saved.
        const saved = answer.body && typeof answer.body === 'object' ? answer.body : {};
        return { ...body, ...saved, id: (saved as { id?: string }).id ?? policyId } as AssignmentPolicy;
      });
    },

    create: async ({ policy }) => {
      const { id: _ignored, ...body } = checkedBody(policy);
      return callGraph(async () => {
        const answer = await (await client()).request<AccessPackageAssignmentPolicy>({ method: 'POST', path: POLICIES, body });
        return { ...body, ...answer.body } as AssignmentPolicy;
      });
    },

    remove: ({ policyId }) =>
      callGraph(async () => {
        await (await client()).request({ method: 'DELETE', path: policyPath(policyId) });
        return { removed: true as const };
      }),
  };
}

/** The body to send, or the problems that keep it from being sent (Graph is not called). */
function checkedBody(policy: unknown): AssignmentPolicyBody {
  const { problems, body } = validatePolicyBody(policy);
  if (body) return body;
  const first = problems[0]!;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  throw new ContractFailure('invalid_input', `${first.message}${more}`, { problems });
}
