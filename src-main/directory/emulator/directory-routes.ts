import { adminUnitRoutes } from './admin-unit-routes';
import { catalogExtensionRoutes } from './catalog-extension-routes';
import { catalogRoleRoutes } from './catalog-role-routes';
import { entitlementRoutes } from './entitlement-routes';
import type { GraphRoute } from './graph-route';
import type { DirectoryDeps } from './directory-deps';

/** Entitlement management (with its catalogs' custom extensions and role assignments) and administrative units. */
export function directoryRoutes(deps: DirectoryDeps): GraphRoute[] {
  return [...entitlementRoutes(deps), ...catalogExtensionRoutes(deps), ...catalogRoleRoutes(deps), ...adminUnitRoutes(deps)];
}
