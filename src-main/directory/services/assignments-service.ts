import type { AccessPackageAssignment } from '@microsoft/microsoft-graph-types';
import type { directoryAssignmentsService, Assignment } from '../../../src-shared/contract/directory';
import type { ServiceImpl } from '../../../src-shared/contract/define-service';
import type { GraphClient } from '../client/graph-client';
import { callGraph, selectWithId } from './graph-failure';

/** Access-package assignments, with the related package, target and policy on request. */
export function createAssignmentsService(client: () => Promise<GraphClient>): ServiceImpl<typeof directoryAssignmentsService> {
  return {
    get: ({ assignmentId, expand, select }) =>
      callGraph(async () => {
        const query: Record<string, string> = {};
        if (expand?.length) query.$expand = [...new Set(expand)].join(',');
        const $select = selectWithId(select);
        if ($select) query.$select = $select;
        const answer = await (await client()).request<AccessPackageAssignment>({
          path: `/identityGovernance/entitlementManagement/assignments/${encodeURIComponent(assignmentId)}`,
          query,
        });
        return answer.body as Assignment;
      }),
  };
}
