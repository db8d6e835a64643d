import type { AccessPackageAssignmentPolicy } from '@microsoft/microsoft-graph-types';
import type { directoryPoliciesService, AssignmentPolicy } from '../../../src-shared/contract/directory';
import type { ServiceImpl } from '../../../src-shared/contract/define-service';
import { ContractFailure } from '../../../src-shared/contract/result';
import type { GraphClient } from '../client/graph-client';
import { callGraph } from './graph-failure';
import { validatePolicyBody } from './policy-validation';

const policyPath = (id: string) => `/identityGovernance/entitlementManagement/assignmentPolicies/${encodeURIComponent(id)}`;

/**
 * Graph leaves the access package and the custom extension stages out of a policy unless asked;
 * the editor needs both to save the policy back (a PUT replaces everything).
 */
export const POLICY_EXPAND = 'accessPackage,customExtensionStageSettings($expand=customExtension)';

async function readPolicy(graph: GraphClient, policyId: string): Promise<AccessPackageAssignmentPolicy> {
  return (await graph.request<AccessPackageAssignmentPolicy>({ path: policyPath(policyId), query: { $expand: POLICY_EXPAND } })).body;
}

/** Access-package assignment policies: read, check without sending, replace with a PUT. */
export function createPoliciesService(client: () => Promise<GraphClient>): ServiceImpl<typeof directoryPoliciesService> {
  return {
    get: ({ policyId }) => callGraph(async () => (await readPolicy(await client(), policyId)) as AssignmentPolicy),

    validate: async ({ policy }) => ({ problems: validatePolicyBody(policy).problems }),

    update: async ({ policyId, policy }) => {
      const { problems, body } = validatePolicyBody(policy);
      if (!body) {
        const first = problems[0]!;
        const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
        throw new ContractFailure('invalid_input', `${first.message}${more}`, { problems });
      }
      if (body.id !== undefined && body.id !== policyId) {
        throw new ContractFailure('invalid_input', `the body is policy ${body.id} but the update names policy ${policyId}`, {
          problems: [{ path: 'id', code: 'idMismatch', message: 'id differs from the policy being updated' }],
        });
      }
      return callGraph(async () => {
        const answer = await (await client()).request<AccessPackageAssignmentPolicy | undefined>({ method: 'PUT', path: policyPath(policyId), body });
        // Graph may shorten the answer, or send none; the caller still gets the policy it saved.
        const saved = answer.body && typeof answer.body === 'object' ? answer.body : {};
        return { ...body, ...saved, id: (saved as { id?: string }).id ?? policyId } as AssignmentPolicy;
      });
    },
  };
}
