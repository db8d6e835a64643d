import { PERMISSIONS, requirePermission } from './access';
import { CUSTOM_EXTENSION_PROPS, KIND, publicView } from './directory-objects';
import type { DirectoryDeps } from './directory-deps';
import { requireEntitlementAccess } from './entitlement-access';
import { contextUrl, reply, type GraphRequest } from './graph-context';
import { resource, type GraphHandler, type GraphRoute } from './graph-route';
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
 * picks them by name in a policy's custom extensions). A write is 405, once the caller passed the
 * checks of a write to catalogs.
 */
export function catalogExtensionRoutes(deps: DirectoryDeps): GraphRoute[] {
  const readOnly =
    (collection: string): GraphHandler =>
    ({ caller, method }) => {
      requireEntitlementAccess(deps.store, caller, method, 'catalogs');
      throw new GraphError(405, 'Request_BadRequest', `The ${method} method is not supported on ${collection}.`);
    };
  /** A read: the permission, the catalog, then `$select`. */
  const read =
    (
      collection: string,
      answer: (request: GraphRequest, catalogId: string, select: string[] | undefined, context: string) => void,
    ): GraphHandler =>
    (request) => {
      requirePermission(request.caller, 'directory', PERMISSIONS.entitlementRead);
      const catalogId = request.params.catalogId!;
      if (!deps.store.object(KIND.catalog, catalogId)) throw notFound('directory', catalogId);
      const select = parseSelect(request.query.get('$select'), TYPE, CUSTOM_EXTENSION_PROPS);
      answer(request, catalogId, select, `${BASE}('${catalogId}')/${collection}${select ? `(${select.join(',')})` : ''}`);
    };
  return [...COLLECTIONS].flatMap((collection) => [
    ...resource(
      `/${BASE}/:catalogId/${collection}`,
      {
        GET: read(collection, (request, catalogId, select, context) => {
          const page = queryList(request, deps.store.objects(KIND.customExtension, catalogId), {
            type: TYPE,
            properties: CUSTOM_EXTENSION_PROPS,
            filter: { displayName: (item) => item.displayName },
            top: { default: 100, max: 999 },
          });
          reply(
            request,
            200,
            listBody(contextUrl(request, context), page, (item) => applySelect(publicView(item), select)),
          );
        }),
      },
      readOnly(collection),
    ),
    ...resource(
      `/${BASE}/:catalogId/${collection}/:id`,
      {
        GET: read(collection, (request, catalogId, select, context) => {
          const id = request.params.id!;
          const extension = deps.store.object(KIND.customExtension, id);
          if (!extension || extension._catalogId !== catalogId) throw notFound('directory', id);
          reply(request, 200, {
            '@odata.context': contextUrl(request, `${context}/$entity`),
            ...applySelect(publicView(extension), select),
          });
        }),
      },
      readOnly(collection),
    ),
  ]);
}
