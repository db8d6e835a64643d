import { scopedRoleMemberBodySchema } from '@shared/directory/scoped-roles';
import { isScopable, type DirectoryRole } from './directory-roles';
import { badRequest, GraphError, notFound, unknownProperty } from './graph-error';
import type { UserPrincipal } from './principals';

/** What checking a new scoped role member needs to know about the directory. */
export interface ScopedMemberLookups {
  role(id: string): DirectoryRole | undefined;
  user(id: string): UserPrincipal | undefined;
  /** The unit's members now, as stored. */
  members: readonly Record<string, unknown>[];
}

const invalidRoleId = () =>
  badRequest('Request_BadRequest', "Invalid value specified for property 'roleId' of resource 'ScopedRoleMembership'.");

/**
 * Checks a POST .../scopedRoleMembers body against the shared schema and the directory, and
 * answers the role and the user it names, or throws Graph's refusal: 400 RequestBodyRead for an
 * unknown property, 400 for a role that is not an activated directory role or cannot be scoped
 * to a unit, 400 for a member id that is not an object id, 404 for one nobody has, and 400 for
 * a person who already holds the role in this unit.
 */
export function checkScopedMemberBody(
  raw: Record<string, unknown>,
  lookups: ScopedMemberLookups,
): { role: DirectoryRole; user: UserPrincipal } {
  // OData annotations (@odata.type, ...) may ride along in any body.
  const body = Object.fromEntries(Object.entries(raw).filter(([key]) => !key.startsWith('@odata.')));
  const parsed = scopedRoleMemberBodySchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code === 'unrecognized_keys') throw unknownProperty(issue.keys[0]!, 'microsoft.graph.scopedRoleMembership');
    if (issue.path[0] === 'roleId') throw invalidRoleId();
    const info = body.roleMemberInfo as { id?: unknown } | undefined;
    throw badRequest('Request_BadRequest', `Invalid object identifier '${typeof info?.id === 'string' ? info.id : ''}'.`);
  }
  const { roleId, roleMemberInfo } = parsed.data;
  const role = lookups.role(roleId);
  if (!role) throw invalidRoleId();
  if (!isScopable(role))
    throw badRequest('Request_BadRequest', `Role '${role.id}' is not supported for scoped role assignment on an administrative unit.`);
  const user = lookups.user(roleMemberInfo.id);
  if (!user) throw notFound('directory', roleMemberInfo.id);
  const held = lookups.members.some(
    (m) => String(m.roleId).toLowerCase() === role.id.toLowerCase() && (m.roleMemberInfo as { id?: string } | undefined)?.id === user.id,
  );
  if (held)
    throw new GraphError(
      400,
      'Request_BadRequest',
      'A conflicting object with one or more of the specified property values is present in the directory.',
    );
  return { role, user };
}
