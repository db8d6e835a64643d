import type { ScopedRoleMembership } from '@microsoft/microsoft-graph-types';
import type { directoryRolesService, ScopedRoleMember } from '../../../src-shared/contract/directory';
import type { ServiceImpl } from '../../../src-shared/contract/define-service';
import type { GraphClient } from '../client/graph-client';
import { callGraph, selectWithId } from './graph-failure';

/** Role members scoped to an administrative unit. */
export function createRolesService(client: () => Promise<GraphClient>): ServiceImpl<typeof directoryRolesService> {
  return {
    get: ({ administrativeUnitId, membershipId, select }) =>
      callGraph(async () => {
        const $select = selectWithId(select);
        const answer = await (await client()).request<ScopedRoleMembership>({
          path: `/directory/administrativeUnits/${encodeURIComponent(administrativeUnitId)}/scopedRoleMembers/${encodeURIComponent(membershipId)}`,
          query: $select ? { $select } : {},
        });
        return answer.body as ScopedRoleMember;
      }),
  };
}
