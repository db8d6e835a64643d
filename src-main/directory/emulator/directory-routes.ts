import { handleAdminUnits } from './admin-unit-routes';
import { handleEntitlement } from './entitlement-routes';
import type { GraphRequest } from './graph-context';
import type { GraphStore } from './graph-store';
import type { Principals } from './principals';

export interface DirectoryDeps {
  store: GraphStore;
  principals: Principals;
  clock: () => number;
}

/** Entitlement management and administrative units; false when the path is neither. */
export async function handleDirectory(deps: DirectoryDeps, request: GraphRequest): Promise<boolean> {
  return (await handleEntitlement(deps, request)) || (await handleAdminUnits(deps, request));
}
