import { handleAdminUnits } from './admin-unit-routes';
import { handleCatalogRoles } from './catalog-role-routes';
import { handleEntitlement } from './entitlement-routes';
import type { GraphRequest } from './graph-context';
import type { DirectoryDeps } from './directory-deps';

/** Entitlement management (with its catalog role assignments) and administrative units; false when the path is none of them. */
export async function handleDirectory(deps: DirectoryDeps, request: GraphRequest): Promise<boolean> {
  return (await handleEntitlement(deps, request)) || (await handleCatalogRoles(deps, request)) || (await handleAdminUnits(deps, request));
}
