import type { AdministrativeUnit as GraphAdministrativeUnit, DirectoryObject, DirectoryRole, ScopedRoleMembership } from '@microsoft/microsoft-graph-types';
import type { AdministrativeUnit, directoryRolesService, ScopedRoleMember, ScopedRoleMemberView } from '../../../src-shared/contract/directory';
import type { ServiceImpl } from '../../../src-shared/contract/define-service';
import type { GraphClient } from '../client/graph-client';
import { isGraphError } from '../client/graph-error';
import { readAllPages } from './graph-pages';
import { callGraph, selectWithId } from './graph-failure';

const unitPath = (id: string) => `/directory/administrativeUnits/${encodeURIComponent(id)}`;
const KINDS: Record<string, ScopedRoleMemberView['memberKind']> = {
  '#microsoft.graph.user': 'user',
  '#microsoft.graph.group': 'group',
  '#microsoft.graph.servicePrincipal': 'servicePrincipal',
};

/**
 * Names are a courtesy: an account allowed to read role members but not the whole directory
 * (403) still gets the members, with the role's name or the member's kind left unknown.
 */
async function unlessForbidden<T>(read: () => Promise<T>, otherwise: T): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (isGraphError(error) && error.status === 403) return otherwise;
    throw error;
  }
}

/** Administrative units and the role members scoped to them, with role names and member kinds. */
export function createRolesService(client: () => Promise<GraphClient>): ServiceImpl<typeof directoryRolesService> {
  return {
    units: () =>
      callGraph(async () =>
        (
          await readAllPages<GraphAdministrativeUnit>(await client(), {
            path: '/directory/administrativeUnits',
            query: { $select: 'id,displayName,description,visibility,membershipType' },
          })
        ).map((unit) => unit as AdministrativeUnit),
      ),

    members: ({ administrativeUnitId }) =>
      callGraph(async () => {
        const graph = await client();
        const members = await readAllPages<ScopedRoleMembership>(graph, { path: `${unitPath(administrativeUnitId)}/scopedRoleMembers` });
        if (members.length === 0) return [];
        const roles = await unlessForbidden(async () => readAllPages<DirectoryRole>(graph, { path: '/directoryRoles', query: { $select: 'id,displayName' } }), []);
        const memberIds = [...new Set(members.map((m) => m.roleMemberInfo?.id).filter((id): id is string => typeof id === 'string'))];
        const objects = await unlessForbidden(
          async () =>
            (
              await graph.request<{ value: (DirectoryObject & { '@odata.type'?: string })[] }>({
                method: 'POST',
                path: '/directoryObjects/getByIds',
                body: { ids: memberIds.slice(0, 1000), types: ['user', 'group', 'servicePrincipal'] },
              })
            ).body.value,
          [],
        );
        const roleName = new Map(roles.map((role) => [role.id, role.displayName ?? null]));
        const kind = new Map(objects.map((object) => [object.id, KINDS[object['@odata.type'] ?? ''] ?? 'unknown']));
        return members.map((member): ScopedRoleMemberView => {
          const info = (member.roleMemberInfo ?? {}) as { id?: string | null; displayName?: string | null; userPrincipalName?: string | null };
          return {
            id: member.id ?? '',
            roleId: member.roleId ?? '',
            roleName: roleName.get(member.roleId ?? '') ?? null,
            memberId: info.id ?? '',
            memberName: info.displayName ?? null,
            memberPrincipalName: info.userPrincipalName ?? null,
            memberKind: kind.get(info.id ?? '') ?? 'unknown',
          };
        });
      }),

    get: ({ administrativeUnitId, membershipId, select }) =>
      callGraph(async () => {
        const $select = selectWithId(select);
        const answer = await (await client()).request<ScopedRoleMembership>({
          path: `${unitPath(administrativeUnitId)}/scopedRoleMembers/${encodeURIComponent(membershipId)}`,
          query: $select ? { $select } : {},
        });
        return answer.body as ScopedRoleMember;
      }),
  };
}
