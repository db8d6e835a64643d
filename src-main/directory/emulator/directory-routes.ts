import { handleAdminUnits } from './admin-unit-routes';
import { handleCatalogExtensions } from './catalog-extension-routes';
import { handleCatalogRoles } from './catalog-role-routes';
import { handleEntitlement } from './entitlement-routes';
import type { GraphRequest } from './graph-context';
import type { DirectoryDeps } from './directory-deps';

/** Entitlement management (with its catalogs' custom extensions and role assignments) and administrative units; false when the path is none of them. */
export async function handleDirectory(deps: DirectoryDeps, request: GraphRequest): Promise<boolean> {
  return (await handleEntitlement(deps, request)) || (await handleCatalogExtensions(deps, request)) || (await handleCatalogRoles(deps, request)) || (await handleAdminUnits(deps, request));
}
