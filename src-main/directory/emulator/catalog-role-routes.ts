import { randomUUID } from 'node:crypto';
import { PERMISSIONS, requirePermission } from './access';
import { KIND, ROLE_ASSIGNMENT_PROPS, publicView, ref } from './directory-objects';
import type { DirectoryDeps } from './directory-deps';
import { CATALOG_OWNER_ROLE, catalogScope, requireEntitlementRole } from './entitlement-access';
import { contextUrl, reply, type GraphRequest } from './graph-context';
import { resource, type GraphHandler, type GraphRoute } from './graph-route';
import { badRequest, GraphError, notFound, unknownProperty } from './graph-error';
import { readJsonObject } from './graph-http';
import { listBody, queryList, type ListRules } from './list-query';
import { applySelect, parseSelect } from './odata-query';
import { findUser } from './principals';

type Stored = Record<string, unknown>;
const BASE = 'roleManagement/entitlementManagement/roleAssignments';
const LIST: ListRules<Stored> = {
  type: 'unifiedRoleAssignment',
  properties: ROLE_ASSIGNMENT_PROPS,
  filter: { principalId: (a) => a.principalId, roleDefinitionId: (a) => a.roleDefinitionId, appScopeId: (a) => a.appScopeId },
  top: { default: 100, max: 999 },
};

/**
 * `/roleManagement/entitlementManagement/roleAssignments[/{id}]`: who owns which catalog (the
 * "Catalog owner" role scoped to `/AccessPackageCatalog/{id}`): list, get, POST, DELETE. A
 * catalog owner may write that catalog's packages, policies and assignments as a signed-in user.
 */
export function catalogRoleRoutes(deps: DirectoryDeps): GraphRoute[] {
  /** Reads need the read permission; writes the write one and, for a signed-in user, an entitlement role. */
  const guarded =
    (handler: GraphHandler): GraphHandler =>
    (request) => {
      const writing = request.method !== 'GET';
      requirePermission(request.caller, 'directory', writing ? PERMISSIONS.entitlementWrite : PERMISSIONS.entitlementRead);
      if (writing) requireEntitlementRole(deps.store, request.caller);
      return handler(request);
    };
  const notSupported = guarded(({ method }) => {
    throw new GraphError(405, 'Request_BadRequest', `The ${method} method is not supported on roleAssignments.`);
  });
  const select = ({ query }: GraphRequest) => parseSelect(query.get('$select'), LIST.type, ROLE_ASSIGNMENT_PROPS);
  return [
    ...resource(
      `/${BASE}`,
      {
        GET: guarded((request) => {
          const selected = select(request);
          const page = queryList(request, deps.store.objects(KIND.catalogRoleAssignment), LIST);
          reply(
            request,
            200,
            listBody(contextUrl(request, BASE), page, (item) => applySelect(publicView(item), selected)),
          );
        }),
        POST: guarded((request) => assignCatalogRole(deps, request)),
      },
      notSupported,
    ),
    ...resource(
      `/${BASE}/:id`,
      {
        GET: guarded((request) => {
          const selected = select(request);
          const id = request.params.id!;
          const assignment = deps.store.object(KIND.catalogRoleAssignment, id);
          if (!assignment) throw notFound('directory', id);
          reply(request, 200, {
            '@odata.context': contextUrl(request, `${BASE}/$entity`),
            ...applySelect(publicView(assignment), selected),
          });
        }),
        DELETE: guarded((request) => {
          const id = request.params.id!;
          const assignment = deps.store.object(KIND.catalogRoleAssignment, id);
          if (!assignment) throw notFound('directory', id);
          requireEntitlementRole(deps.store, request.caller, ref(assignment, '_catalogId'));
          deps.store.transaction(() => deps.store.deleteObject(KIND.catalogRoleAssignment, id));
          reply(request, 204, undefined);
        }),
      },
      notSupported,
    ),
  ];
}

/** POST roleAssignments: Catalog owner of one existing catalog, for a directory user. */
async function assignCatalogRole(deps: DirectoryDeps, request: GraphRequest): Promise<void> {
  const { caller } = request;
  const body = await readJsonObject(request.req);
  for (const key of Object.keys(body))
    if (!(ROLE_ASSIGNMENT_PROPS as readonly string[]).includes(key) && !key.startsWith('@odata.'))
      throw unknownProperty(key, 'microsoft.graph.unifiedRoleAssignment');
  const { principalId, roleDefinitionId, appScopeId } = body;
  if (typeof principalId !== 'string' || !findUser(deps.principals, principalId))
    throw badRequest('InvalidModel', `The model is invalid. principalId: no user '${String(principalId ?? '')}' in the directory`);
  if (roleDefinitionId !== CATALOG_OWNER_ROLE)
    throw badRequest(
      'InvalidModel',
      `The model is invalid. roleDefinitionId: the emulator assigns Catalog owner ('${CATALOG_OWNER_ROLE}') only`,
    );
  const catalogId = typeof appScopeId === 'string' ? /^\/AccessPackageCatalog\/([^/]+)$/.exec(appScopeId)?.[1] : undefined;
  if (!catalogId || !deps.store.object(KIND.catalog, catalogId))
    throw badRequest('InvalidModel', `The model is invalid. appScopeId: expected /AccessPackageCatalog/{id} of an existing catalog`);
  requireEntitlementRole(deps.store, caller, catalogId);
  const user = findUser(deps.principals, principalId)!;
  const stored = {
    id: randomUUID(),
    principalId: user.id,
    roleDefinitionId,
    appScopeId: catalogScope(catalogId),
    directoryScopeId: null,
    _catalogId: catalogId,
  };
  deps.store.transaction(() => deps.store.putObject(KIND.catalogRoleAssignment, stored.id, catalogId, stored));
  reply(request, 201, { '@odata.context': contextUrl(request, `${BASE}/$entity`), ...publicView(stored) });
}
