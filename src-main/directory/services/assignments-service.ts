import type { AccessPackageAssignment } from '@microsoft/microsoft-graph-types';
import type { directoryAssignmentsService, Assignment } from '@shared/contract/directory';
import type { ServiceImpl } from '@shared/contract/define-service';
import { ContractFailure } from '@shared/contract/result';
import type { GraphClient, GraphCollection } from '../client/graph-client';
import { assignmentListQuery } from './assignment-list-query';
import { callGraph, selectWithId } from './graph-failure';

const ASSIGNMENTS = '/identityGovernance/entitlementManagement/assignments';

/** Access-package assignments: pages of a filtered list, and one with its package, target and policy. */
export function createAssignmentsService(client: () => Promise<GraphClient>): ServiceImpl<typeof directoryAssignmentsService> {
  return {
    list: ({ filter, columns, pageSize, next }) =>
      callGraph(async () => {
        const graph = await client();
        // A next page is Graph's own link, handed back by the renderer: only ever one of ours.
        if (next !== undefined && !next.startsWith(`${graph.baseUrl}${ASSIGNMENTS}?`))
          throw new ContractFailure('invalid_input', 'that is not a next page of the assignment list');
        const answer = await graph.request<GraphCollection<Assignment> & { '@odata.count'?: number }>(
          next !== undefined ? { path: next } : { path: ASSIGNMENTS, query: assignmentListQuery(filter, columns, pageSize) },
        );
        const page = answer.body;
        return {
          items: page.value,
          total: typeof page['@odata.count'] === 'number' ? page['@odata.count'] : null,
          next: page['@odata.nextLink'] ?? null,
        };
      }),

    get: ({ assignmentId, expand, select }) =>
      callGraph(async () => {
        const query: Record<string, string> = {};
        if (expand?.length) query.$expand = [...new Set(expand)].join(',');
        const $select = selectWithId(select);
        if ($select) query.$select = $select;
        const answer = await (
          await client()
        ).request<AccessPackageAssignment>({ path: `${ASSIGNMENTS}/${encodeURIComponent(assignmentId)}`, query });
        return answer.body as Assignment;
      }),
  };
}
