import type {
  AdministrativeUnit as GraphAdministrativeUnit,
  DirectoryObject,
  DirectoryRole,
  ScopedRoleMembership,
} from '@microsoft/microsoft-graph-types';
import type {
  AdministrativeUnit,
  DirectoryRoleInfo,
  directoryRolesService,
  ScopedRoleMember,
  ScopedRoleMemberView,
} from '@shared/contract/directory';
import type { ServiceImpl } from '@shared/contract/define-service';
import { ContractFailure } from '@shared/contract/result';
import { isScopableRoleTemplate, toScopedRoleMemberBody } from '@shared/directory/scoped-roles';
import type { GraphClient } from '../client/graph-client';
import { isGraphError } from '../client/graph-error';
import { readAllPages } from './graph-pages';
import { callGraph, graphFailure, selectWithId } from './graph-failure';
import { scopedMemberRefusal, type ScopedMemberIds } from './scoped-member-refusal';

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

/** Runs a write; Graph's refusal leaves with details.refusal when it says why (a duplicate, a role that cannot be scoped, ...). */
async function writeMember<T>(ids: ScopedMemberIds, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isGraphError(error)) throw error;
    const failure = graphFailure(error);
    const refusal = scopedMemberRefusal(error, ids);
    if (refusal === null) throw failure;
    throw new ContractFailure(failure.code, failure.message, { ...(failure.details as object), refusal });
  }
}

/**
 * Administrative units and the role members scoped to them, with role names and member kinds.
 * `writer` adds and removes members: a client that asks a signed-in person for
 * RoleManagement.ReadWrite.Directory only then (incremental consent).
 */
export function createRolesService(
  client: () => Promise<GraphClient>,
  writer: () => Promise<GraphClient> = client,
): ServiceImpl<typeof directoryRolesService> {
  const roleNamed = async (graph: GraphClient, roleId: string): Promise<string | null> =>
    unlessForbidden(
      async () =>
        (
          await graph.request<DirectoryRole>({
            path: `/directoryRoles/${encodeURIComponent(roleId)}`,
            query: { $select: 'id,displayName' },
          })
        ).body.displayName ?? null,
      null,
    );
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
        const roles = await unlessForbidden(
          async () => readAllPages<DirectoryRole>(graph, { path: '/directoryRoles', query: { $select: 'id,displayName' } }),
          [],
        );
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
          const info = (member.roleMemberInfo ?? {}) as {
            id?: string | null;
            displayName?: string | null;
            userPrincipalName?: string | null;
          };
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

    scopableRoles: () =>
      callGraph(async () => {
        const roles = await readAllPages<DirectoryRole>(await client(), {
          path: '/directoryRoles',
          query: { $select: 'id,displayName,description,roleTemplateId' },
        });
        return roles
          .filter((role) => typeof role.id === 'string' && isScopableRoleTemplate(role.roleTemplateId))
          .map((role): DirectoryRoleInfo => ({
            id: role.id!,
            displayName: role.displayName ?? role.id!,
            description: role.description ?? null,
            roleTemplateId: role.roleTemplateId!,
          }))
          .sort((a, b) => a.displayName.localeCompare(b.displayName));
      }),

    addMember: ({ administrativeUnitId, roleId, memberId }) =>
      writeMember({ administrativeUnitId, roleId, memberId }, async () => {
        const answer = await (
          await writer()
        ).request<ScopedRoleMembership>({
          method: 'POST',
          path: `${unitPath(administrativeUnitId)}/scopedRoleMembers`,
          body: toScopedRoleMemberBody({ roleId, memberId }),
        });
        const member = answer.body;
        const info = (member.roleMemberInfo ?? {}) as {
          id?: string | null;
          displayName?: string | null;
          userPrincipalName?: string | null;
        };
        return {
          id: member.id ?? '',
          roleId: member.roleId ?? roleId,
          roleName: await roleNamed(await client(), member.roleId ?? roleId),
          memberId: info.id ?? memberId,
          memberName: info.displayName ?? null,
          memberPrincipalName: info.userPrincipalName ?? null,
          // Only users are offered, and Graph stored the one named.
          memberKind: 'user',
        };
      }),

    removeMember: ({ administrativeUnitId, membershipId }) =>
      writeMember({ administrativeUnitId, membershipId }, async () => {
        await (
          await writer()
        ).request({ method: 'DELETE', path: `${unitPath(administrativeUnitId)}/scopedRoleMembers/${encodeURIComponent(membershipId)}` });
        return { removed: true as const };
      }),

    get: ({ administrativeUnitId, membershipId, select }) =>
      callGraph(async () => {
        const $select = selectWithId(select);
        const answer = await (
          await client()
        ).request<ScopedRoleMembership>({
          path: `${unitPath(administrativeUnitId)}/scopedRoleMembers/${encodeURIComponent(membershipId)}`,
          query: $select ? { $select } : {},
        });
        return answer.body as ScopedRoleMember;
      }),
  };
}
