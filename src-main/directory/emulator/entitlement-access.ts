import { PERMISSIONS, requirePermission, type Caller } from './access';
import { KIND, ref } from './directory-objects';
import { GraphError } from './graph-error';
import type { GraphStore } from './graph-store';
import { ENTITLEMENT_ADMIN_ROLES } from './tenant-roles';

/** Entra's built-in entitlement management role "Catalog owner" (a role definition id). */
export const CATALOG_OWNER_ROLE = 'ae79f266-94d4-4dab-b730-feca7e132178';

/** `appScopeId` of a role assignment scoped to one catalog. */
export const catalogScope = (catalogId: string): string => `/AccessPackageCatalog/${catalogId}`;

/** The catalogs a user owns through Catalog owner role assignments. */
function catalogsOwnedBy(store: GraphStore, userId: string): Set<string> {
  const owned = new Set<string>();
  for (const assignment of store.objects(KIND.catalogRoleAssignment)) {
    if (assignment.principalId === userId && assignment.roleDefinitionId === CATALOG_OWNER_ROLE) owned.add(ref(assignment, '_catalogId'));
  }
  return owned;
}

const denied = (what: string): GraphError =>
  new GraphError(
    403,
    'Authorization_RequestDenied',
    `Insufficient privileges to complete the operation. The signed-in user needs the ${ENTITLEMENT_ADMIN_ROLES.join(' or ')} role, or Catalog owner of ${what}.`,
  );

/**
 * A delegated entitlement management write needs, besides the delegated permission, a role of
 * the signed-in user: a tenant-wide one (Identity Governance or Global Administrator) or
 * Catalog owner of the catalog written to (`catalogId`; undefined: owner of any catalog, the
 * check before the target is known). Application tokens are judged by their permissions alone.
 */
export function requireEntitlementRole(store: GraphStore, caller: Caller, catalogId?: string): void {
  if (caller.kind !== 'user' || !caller.user) return;
  if (caller.user.roles.some((role) => ENTITLEMENT_ADMIN_ROLES.includes(role))) return;
  const owned = catalogsOwnedBy(store, caller.user.id);
  if (catalogId === undefined ? owned.size === 0 : !owned.has(catalogId))
    throw denied(catalogId === undefined ? 'a catalog' : `the catalog '${catalogId}'`);
}

/**
 * What every call under /identityGovernance/entitlementManagement/{collection} is held to first:
 * the read or write permission, and for a write by a signed-in user an entitlement role (before
 * the body is read). A request for one's own access needs no role, so a write to
 * `assignmentRequests` is judged once its type is known.
 */
export function requireEntitlementAccess(store: GraphStore, caller: Caller, method: string, collection: string): void {
  const writing = method !== 'GET';
  requirePermission(caller, 'directory', writing ? PERMISSIONS.entitlementWrite : PERMISSIONS.entitlementRead);
  if (writing && collection !== 'assignmentRequests') requireEntitlementRole(store, caller);
}
