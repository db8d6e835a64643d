import { PERMISSIONS, requirePermission } from './access';
import { CUSTOM_EXTENSION_PROPS, KIND, publicView } from './directory-objects';
import type { DirectoryDeps } from './directory-deps';
import { contextUrl, reply, type GraphRequest } from './graph-context';
import { GraphError, notFound } from './graph-error';
import { listBody, queryList } from './list-query';
import { applySelect, parseSelect } from './odata-query';

const BASE = 'identityGovernance/entitlementManagement/catalogs';
/** v1.0's name, and the older one Graph still answers to (clients written before the rename use it). */
const COLLECTIONS = new Set(['customWorkflowExtensions', 'accessPackageCustomWorkflowExtensions']);
const TYPE = 'customCalloutExtension';

/**
 * `/identityGovernance/entitlementManagement/catalogs/{id}/customWorkflowExtensions[/{id}]`: the
 * Logic Apps a catalog's policies may call at a stage of a request, listed and read (the console
 * picks them by name in a policy's custom extensions). False for other paths.
 */
export async function handleCatalogExtensions(deps: DirectoryDeps, request: GraphRequest): Promise<boolean> {
  const { segments, method, query } = request;
  const [root, area, catalogs, catalogId, collection, id] = segments;
  if (root !== 'identityGovernance' || area !== 'entitlementManagement' || catalogs !== 'catalogs' || !catalogId || !collection || !COLLECTIONS.has(collection) || segments.length > 6) return false;
  requirePermission(request.caller, 'directory', method === 'GET' ? PERMISSIONS.entitlementRead : PERMISSIONS.entitlementWrite);
  if (method !== 'GET') throw new GraphError(405, 'Request_BadRequest', `The ${method} method is not supported on ${collection}.`);
  if (!deps.store.object(KIND.catalog, catalogId)) throw notFound('directory', catalogId);
  const select = parseSelect(query.get('$select'), TYPE, CUSTOM_EXTENSION_PROPS);
  const context = `${BASE}('${catalogId}')/${collection}${select ? `(${select.join(',')})` : ''}`;
  if (id !== undefined) {
    const extension = deps.store.object(KIND.customExtension, id);
    if (!extension || extension._catalogId !== catalogId) throw notFound('directory', id);
    reply(request, 200, { '@odata.context': contextUrl(request, `${context}/$entity`), ...applySelect(publicView(extension), select) });
    return true;
  }
  const page = queryList(request, deps.store.objects(KIND.customExtension, catalogId), {
    type: TYPE,
    properties: CUSTOM_EXTENSION_PROPS,
    filter: { displayName: (item) => item.displayName },
    top: { default: 100, max: 999 },
  });
  reply(request, 200, listBody(contextUrl(request, context), page, (item) => applySelect(publicView(item), select)));
  return true;
}
