import { randomUUID } from 'node:crypto';
import {
  ASSIGNMENT_PROPS,
  CATALOG_PROPS,
  KIND,
  PACKAGE_PROPS,
  POLICY_PROPS,
  REQUEST_PROPS,
  SUBJECT_PROPS,
  publicView,
  ref,
  type NavigationTarget,
} from './directory-objects';
import type { DirectoryDeps } from './directory-deps';
import { contextUrl, reply, type GraphRequest } from './graph-context';
import { resource, resourceNotFound, type GraphHandler, type GraphRoute } from './graph-route';
import { badRequest, GraphError, notFound } from './graph-error';
import { readJsonObject } from './graph-http';
import { listBody, queryList } from './list-query';
import { applySelect, parseExpand, parseSelect } from './odata-query';
import { parsePolicyBody } from './policy-body';
import { unknownUserInPolicy } from './policy-references';
import { requireEntitlementAccess, requireEntitlementRole } from './entitlement-access';
import { findUser } from './principals';

const BASE = 'identityGovernance/entitlementManagement';

const NAV = {
  accessPackage: { type: 'accessPackage', properties: PACKAGE_PROPS },
  assignmentPolicy: { type: 'accessPackageAssignmentPolicy', properties: POLICY_PROPS },
  assignmentPolicies: { type: 'accessPackageAssignmentPolicy', properties: POLICY_PROPS },
  target: { type: 'accessPackageSubject', properties: SUBJECT_PROPS },
  catalog: { type: 'accessPackageCatalog', properties: CATALOG_PROPS },
  // Stored inline with the policy (each with its customExtension reference), so the nested
  // `$expand=customExtensionStageSettings($expand=customExtension)` Graph clients send is served.
  customExtensionStageSettings: {
    type: 'customExtensionStageSetting',
    properties: ['id', 'stage', 'customExtension'],
    navigation: ['customExtension'],
  },
} satisfies Record<string, NavigationTarget>;

/** Each collection: its kind, Graph type, properties and what `$expand` may name. */
const COLLECTIONS = {
  accessPackages: {
    kind: KIND.accessPackage,
    type: 'accessPackage',
    properties: PACKAGE_PROPS,
    navigation: { assignmentPolicies: NAV.assignmentPolicies, catalog: NAV.catalog },
  },
  assignmentPolicies: {
    kind: KIND.policy,
    type: 'accessPackageAssignmentPolicy',
    properties: POLICY_PROPS,
    navigation: { accessPackage: NAV.accessPackage, catalog: NAV.catalog, customExtensionStageSettings: NAV.customExtensionStageSettings },
  },
  assignments: {
    kind: KIND.assignment,
    type: 'accessPackageAssignment',
    properties: ASSIGNMENT_PROPS,
    navigation: { accessPackage: NAV.accessPackage, target: NAV.target, assignmentPolicy: NAV.assignmentPolicy },
  },
  assignmentRequests: {
    kind: KIND.request,
    type: 'accessPackageAssignmentRequest',
    properties: REQUEST_PROPS,
    navigation: {
      accessPackage: NAV.accessPackage,
      assignment: { type: 'accessPackageAssignment', properties: ASSIGNMENT_PROPS },
      requestor: NAV.target,
    },
  },
  catalogs: { kind: KIND.catalog, type: 'accessPackageCatalog', properties: CATALOG_PROPS, navigation: {} },
} as const;
type CollectionName = keyof typeof COLLECTIONS;

/** What `$filter` may name on each collection, and where a stored object keeps it. */
const FILTERABLE: Record<CollectionName, Record<string, (item: Record<string, unknown>) => unknown>> = {
  accessPackages: { displayName: (i) => i.displayName, isHidden: (i) => i.isHidden, 'catalog/id': (i) => i._catalogId },
  assignmentPolicies: {
    displayName: (i) => i.displayName,
    'accessPackage/id': (i) => i._accessPackageId,
    'catalog/id': (i) => i._catalogId,
  },
  assignments: {
    state: (i) => i.state,
    status: (i) => i.status,
    'accessPackage/id': (i) => i._accessPackageId,
    'assignmentPolicy/id': (i) => i._policyId,
    'target/objectId': (i) => (i._target as { objectId?: unknown } | undefined)?.objectId,
    'target/principalName': (i) => (i._target as { principalName?: unknown } | undefined)?.principalName,
  },
  assignmentRequests: { state: (i) => i.state, requestType: (i) => i.requestType, 'accessPackage/id': (i) => i._accessPackageId },
  catalogs: { displayName: (i) => i.displayName, state: (i) => i.state },
};

/** What `$orderby` may name on each collection (entitlement management sorts by names and dates). */
const SORTABLE: Record<CollectionName, Record<string, (item: Record<string, unknown>) => unknown> | undefined> = {
  accessPackages: {
    displayName: (i) => i.displayName,
    createdDateTime: (i) => i.createdDateTime,
    modifiedDateTime: (i) => i.modifiedDateTime,
  },
  assignmentPolicies: {
    displayName: (i) => i.displayName,
    createdDateTime: (i) => i.createdDateTime,
    modifiedDateTime: (i) => i.modifiedDateTime,
  },
  assignments: undefined,
  assignmentRequests: { createdDateTime: (i) => i.createdDateTime },
  catalogs: { displayName: (i) => i.displayName, createdDateTime: (i) => i.createdDateTime, modifiedDateTime: (i) => i.modifiedDateTime },
};

const REQUEST_TYPES = [
  'notSpecified',
  'userAdd',
  'userUpdate',
  'userRemove',
  'adminAdd',
  'adminUpdate',
  'adminRemove',
  'systemAdd',
  'systemUpdate',
  'systemRemove',
  'onBehalfAdd',
];

/**
 * /identityGovernance/entitlementManagement/{collection}[/{id}]: every collection is listed and
 * read; policies are created, replaced and deleted, access packages and assignment requests
 * created. Another method is 405, a deeper path no resource, both once the caller passed the
 * collection's checks.
 */
export function entitlementRoutes(deps: DirectoryDeps): GraphRoute[] {
  const routes = (name: CollectionName): GraphRoute[] => {
    const path = `/${BASE}/${name}`;
    const notSupported: GraphHandler = ({ method }) => {
      throw new GraphError(405, 'Request_BadRequest', `The ${method} method is not supported on ${name}.`);
    };
    const table: GraphRoute[] = [
      ...resource(path, { GET: (request) => listCollection(deps, request, name), ...writes(deps, name, 'collection') }, notSupported),
      ...resource(`${path}/:id`, { GET: (request) => getItem(deps, request, name), ...writes(deps, name, 'item') }, notSupported),
      {
        method: '*',
        path: `${path}/:id/*`,
        handler: ({ pathname }) => {
          throw resourceNotFound(pathname);
        },
      },
    ];
    // Every route of the collection is held to its checks first.
    return table.map((route) => ({
      ...route,
      handler: (request: GraphRequest) => {
        requireEntitlementAccess(deps.store, request.caller, request.method, name);
        return route.handler(request);
      },
    }));
  };
  return (Object.keys(COLLECTIONS) as CollectionName[]).flatMap(routes);
}

/** The writes a collection (POST, and PUT of a policy without an id) or one of its items takes, unguarded. */
function writes(deps: DirectoryDeps, name: CollectionName, target: 'collection' | 'item'): Record<string, GraphHandler> {
  const now = () => new Date(deps.clock()).toISOString();
  if (name === 'assignmentPolicies') {
    const upsert: GraphHandler = (request) => upsertPolicy(deps, request, now());
    return target === 'collection' ? { POST: upsert, PUT: upsert } : { PUT: upsert, DELETE: (request) => deletePolicy(deps, request) };
  }
  if (target === 'item') return {};
  if (name === 'accessPackages') return { POST: (request) => createAccessPackage(deps, request, now()) };
  if (name === 'assignmentRequests') {
    return {
      POST: async (request) => {
        const created = createAssignmentRequest(deps, request, await readJsonObject(request.req), now());
        reply(request, 201, { '@odata.context': contextUrl(request, `${BASE}/assignmentRequests/$entity`), ...created });
      },
    };
  }
  return {};
}

function listCollection(deps: DirectoryDeps, request: GraphRequest, name: CollectionName): void {
  const collection = COLLECTIONS[name];
  const select = parseSelect(request.query.get('$select'), collection.type, collection.properties);
  const expand = parseExpand(request.query.get('$expand'), collection.type, collection.navigation);
  const sortable = SORTABLE[name];
  const page = queryList(request, deps.store.objects(collection.kind), {
    type: collection.type,
    properties: collection.properties,
    filter: FILTERABLE[name],
    ...(sortable ? { orderBy: sortable } : {}),
    top: { default: 100, max: 999 },
  });
  reply(
    request,
    200,
    listBody(contextUrl(request, `${BASE}/${name}${select ? `(${select.join(',')})` : ''}`), page, (item) =>
      render(deps, item, select, expand),
    ),
  );
}

function getItem(deps: DirectoryDeps, request: GraphRequest, name: CollectionName): void {
  const collection = COLLECTIONS[name];
  const id = request.params.id!;
  const select = parseSelect(request.query.get('$select'), collection.type, collection.properties);
  const expand = parseExpand(request.query.get('$expand'), collection.type, collection.navigation);
  const item = deps.store.object(collection.kind, id);
  if (!item) throw notFound('directory', id);
  reply(request, 200, {
    '@odata.context': contextUrl(request, `${BASE}/${name}${select ? `(${select.join(',')})` : ''}/$entity`),
    ...render(deps, item, select, expand),
  });
}

/** POST a policy (a new id) or PUT one (replacing it whole; PUT without an id names no policy). */
async function upsertPolicy(deps: DirectoryDeps, request: GraphRequest, now: string): Promise<void> {
  const { method } = request;
  const id = request.params.id;
  const body = parsePolicyBody(await readJsonObject(request.req));
  const unknownUser = unknownUserInPolicy(body, deps.principals);
  if (unknownUser) throw unknownUser;
  const policyId = id ?? randomUUID();
  const existing = id ? deps.store.object(KIND.policy, id) : undefined;
  if (method === 'PUT' && !existing) throw notFound('directory', policyId);
  if (body.id && id && body.id !== id)
    throw badRequest('InvalidModel', `The model is invalid. id: '${body.id}' does not match the policy id in the URL ('${id}').`);
  const pkg = deps.store.object(KIND.accessPackage, body.accessPackage.id);
  if (!pkg) throw notFound('directory', body.accessPackage.id);
  requireEntitlementRole(deps.store, request.caller, ref(pkg, '_catalogId'));
  if (existing) requireEntitlementRole(deps.store, request.caller, ref(existing, '_catalogId'));
  if (existing && ref(existing, '_accessPackageId') !== body.accessPackage.id)
    throw badRequest('InvalidModel', 'The model is invalid. accessPackage: the access package of a policy cannot be changed.');
  const stored = {
    id: policyId,
    displayName: body.displayName,
    description: body.description,
    allowedTargetScope: body.allowedTargetScope,
    specificAllowedTargets: body.specificAllowedTargets,
    automaticRequestSettings: body.automaticRequestSettings ?? null,
    createdDateTime: existing?.createdDateTime ?? now,
    modifiedDateTime: now,
    expiration: { duration: null, endDateTime: null, ...body.expiration },
    requestorSettings: body.requestorSettings,
    requestApprovalSettings: body.requestApprovalSettings,
    reviewSettings: body.reviewSettings !== undefined ? body.reviewSettings : (body.accessReviewSettings ?? null),
    notificationSettings: body.notificationSettings ?? existing?.notificationSettings ?? null,
    questions: (body.questions ?? []).map((q, i) => ({ ...q, id: q.id ?? randomUUID(), sequence: q.sequence ?? i })),
    // Not given: the stage settings stay as they were; [] removes them all (seed rule 1).
    customExtensionStageSettings:
      body.customExtensionStageSettings === undefined
        ? (existing?.customExtensionStageSettings ?? [])
        : body.customExtensionStageSettings.map((s) => ({
            stage: s.stage,
            customExtension: {
              '@odata.type': '#microsoft.graph.accessPackageAssignmentRequestWorkflowExtension',
              id: s.customExtension.id,
            },
          })),
    _accessPackageId: body.accessPackage.id,
    _catalogId: ref(pkg, '_catalogId'),
  };
  deps.store.transaction(() => deps.store.putObject(KIND.policy, policyId, body.accessPackage.id, stored));
  reply(request, method === 'PUT' ? 200 : 201, {
    '@odata.context': contextUrl(request, `${BASE}/assignmentPolicies/$entity`),
    ...publicView(stored),
  });
}

function deletePolicy(deps: DirectoryDeps, request: GraphRequest): void {
  const id = request.params.id!;
  const policy = deps.store.object(KIND.policy, id);
  if (!policy) throw notFound('directory', id);
  requireEntitlementRole(deps.store, request.caller, ref(policy, '_catalogId'));
  // As in the admin center: a policy people hold access through is kept until that access ends.
  const active = deps.store.objects(KIND.assignment).filter((a) => ref(a, '_policyId') === id && a.state !== 'expired');
  if (active.length > 0)
    throw badRequest(
      'Request_BadRequest',
      `The policy cannot be deleted while ${active.length} assignment${active.length === 1 ? '' : 's'} still use${active.length === 1 ? 's' : ''} it; remove them first.`,
    );
  deps.store.transaction(() => deps.store.deleteObject(KIND.policy, id));
  reply(request, 204, undefined);
}

async function createAccessPackage(deps: DirectoryDeps, request: GraphRequest, now: string): Promise<void> {
  const body = await readJsonObject(request.req);
  for (const key of Object.keys(body))
    if (!['displayName', 'description', 'isHidden', 'catalog'].includes(key) && !key.startsWith('@odata.'))
      throw unknown(key, 'accessPackage');
  if (typeof body.displayName !== 'string' || body.displayName === '')
    throw badRequest('InvalidModel', 'The model is invalid. displayName: is required');
  const catalogId = (body.catalog as { id?: unknown } | undefined)?.id ?? deps.store.objects(KIND.catalog)[0]?.id;
  if (typeof catalogId !== 'string' || !deps.store.object(KIND.catalog, catalogId))
    throw badRequest('InvalidModel', 'The model is invalid. catalog: an existing catalog id is required');
  requireEntitlementRole(deps.store, request.caller, catalogId);
  const stored = {
    id: randomUUID(),
    displayName: body.displayName,
    description: typeof body.description === 'string' ? body.description : '',
    isHidden: body.isHidden === true,
    createdDateTime: now,
    modifiedDateTime: now,
    _catalogId: catalogId,
  };
  deps.store.transaction(() => deps.store.putObject(KIND.accessPackage, stored.id, catalogId, stored));
  reply(request, 201, { '@odata.context': contextUrl(request, `${BASE}/accessPackages/$entity`), ...publicView(stored) });
}

const unknown = (property: string, type: string) =>
  badRequest(
    'RequestBodyRead',
    `The property '${property}' does not exist on type 'microsoft.graph.${type}'. Make sure to only use property names that are defined by the type or mark the type as open type.`,
  );

/** An object with the requested navigation properties expanded, then reduced to $select. */
function render(
  deps: DirectoryDeps,
  item: Record<string, unknown>,
  select: string[] | undefined,
  expand: { name: string; select?: string[] }[],
): Record<string, unknown> {
  const out = applySelect(publicView(item), select);
  for (const { name, select: inner } of expand) {
    const related = navigate(deps, item, name);
    out[name] = Array.isArray(related)
      ? related.map((r) => applySelect(publicView(r), inner))
      : related
        ? applySelect(publicView(related), inner)
        : null;
  }
  return out;
}

function navigate(
  deps: DirectoryDeps,
  item: Record<string, unknown>,
  name: string,
): Record<string, unknown> | Record<string, unknown>[] | undefined {
  switch (name) {
    case 'accessPackage':
      return deps.store.object(KIND.accessPackage, ref(item, '_accessPackageId'));
    case 'assignmentPolicy':
      return deps.store.object(KIND.policy, ref(item, '_policyId'));
    case 'assignmentPolicies':
      return deps.store.objects(KIND.policy, String(item.id));
    case 'catalog':
      return deps.store.object(KIND.catalog, ref(item, '_catalogId'));
    case 'target':
    case 'requestor':
      return (item[`_${name}`] as Record<string, unknown> | undefined) ?? undefined;
    case 'assignment':
      return deps.store.object(KIND.assignment, ref(item, '_assignmentId'));
    case 'customExtensionStageSettings':
      return (item.customExtensionStageSettings as Record<string, unknown>[] | undefined) ?? [];
    default:
      return undefined;
  }
}

/** An accessPackageSubject for a directory user. */
function subjectOf(user: { id: string; displayName: string; userPrincipalName: string }): Record<string, unknown> {
  return {
    id: user.id,
    displayName: user.displayName,
    email: user.userPrincipalName,
    objectId: user.id,
    principalName: user.userPrincipalName,
    subjectType: 'user',
    onPremisesSecurityIdentifier: null,
  };
}

/**
 * POST assignmentRequests: an add request creates the assignment at once (delivered); a remove
 * request expires the assignment it names. The reply is the request as submitted, as on Graph.
 */
function createAssignmentRequest(
  deps: DirectoryDeps,
  request: GraphRequest,
  body: Record<string, unknown>,
  now: string,
): Record<string, unknown> {
  for (const key of Object.keys(body))
    if (!['requestType', 'assignment', 'justification', 'schedule', 'answers', 'requestor'].includes(key) && !key.startsWith('@odata.'))
      throw unknown(key, 'accessPackageAssignmentRequest');
  const requestType = body.requestType ?? 'adminAdd';
  if (typeof requestType !== 'string' || !REQUEST_TYPES.includes(requestType))
    throw badRequest('InvalidModel', `The model is invalid. requestType: must be one of ${REQUEST_TYPES.join(', ')}`);
  const assignment = body.assignment as Record<string, unknown> | undefined;
  if (!assignment || typeof assignment !== 'object') throw badRequest('InvalidModel', 'The model is invalid. assignment: is required');
  const requestId = randomUUID();
  const requestor = request.caller.user ? subjectOf(request.caller.user) : null;
  const base = {
    id: requestId,
    requestType,
    state: 'submitted',
    status: 'Accepted',
    createdDateTime: now,
    completedDateTime: null,
    justification: typeof body.justification === 'string' ? body.justification : null,
    schedule: body.schedule ?? {
      startDateTime: now,
      recurrence: null,
      expiration: { type: 'notSpecified', duration: null, endDateTime: null },
    },
    answers: Array.isArray(body.answers) ? body.answers : [],
    customExtensionCalloutInstances: [],
  };

  // A user asks for (or gives up) their own access with the permission alone; any other
  // request (adminAdd, on behalf of someone else) needs an entitlement role in the catalog.
  const forSelf = (targetUserId: unknown) =>
    requestType.startsWith('user') && request.caller.user !== undefined && targetUserId === request.caller.user.id;

  if (requestType.endsWith('Remove')) {
    const target = deps.store.object(KIND.assignment, String(assignment.id ?? ''));
    if (!target) throw notFound('directory', String(assignment.id ?? ''));
    if (!forSelf((target._target as { objectId?: unknown } | undefined)?.objectId))
      requireEntitlementRole(deps.store, request.caller, ref(target, '_catalogId'));
    deps.store.transaction(() => {
      deps.store.putObject(KIND.assignment, String(target.id), ref(target, '_accessPackageId'), {
        ...target,
        state: 'expired',
        status: 'Expired',
        expiredDateTime: now,
      });
      deps.store.putObject(KIND.request, requestId, null, {
        ...base,
        state: 'delivered',
        status: 'Delivered',
        completedDateTime: now,
        _assignmentId: target.id,
        _accessPackageId: ref(target, '_accessPackageId'),
        _requestor: requestor,
      });
    });
    return base;
  }

  const policyId = String(assignment.assignmentPolicyId ?? '');
  const policy = deps.store.object(KIND.policy, policyId);
  if (!policy) throw badRequest('InvalidModel', `The model is invalid. assignment.assignmentPolicyId: no policy '${policyId}'`);
  const packageId = String(assignment.accessPackageId ?? ref(policy, '_accessPackageId'));
  if (packageId !== ref(policy, '_accessPackageId'))
    throw badRequest('InvalidModel', 'The model is invalid. assignment.accessPackageId: the policy belongs to another access package');
  const targetId = (assignment.targetId ??
    (assignment.target as { objectId?: unknown } | undefined)?.objectId ??
    request.caller.user?.id) as string | undefined;
  const user = targetId ? findUser(deps.principals, targetId) : undefined;
  if (!user) throw badRequest('InvalidModel', `The model is invalid. assignment.targetId: no user '${targetId ?? ''}' in the directory`);
  if (!forSelf(user.id)) requireEntitlementRole(deps.store, request.caller, ref(policy, '_catalogId'));
  const expiration = policy.expiration as { type?: string; duration?: string | null; endDateTime?: string | null } | undefined;
  const assignmentId = randomUUID();
  deps.store.transaction(() => {
    deps.store.putObject(KIND.assignment, assignmentId, packageId, {
      id: assignmentId,
      state: 'delivered',
      status: 'Delivered',
      expiredDateTime: null,
      schedule: {
        startDateTime: now,
        recurrence: null,
        expiration: {
          type: expiration?.type ?? 'noExpiration',
          duration: expiration?.duration ?? null,
          endDateTime: expiration?.endDateTime ?? null,
        },
      },
      customExtensionCalloutInstances: [],
      _accessPackageId: packageId,
      _policyId: policyId,
      _catalogId: ref(policy, '_catalogId'),
      _target: subjectOf(user),
    });
    deps.store.putObject(KIND.request, requestId, null, {
      ...base,
      state: 'delivered',
      status: 'Delivered',
      completedDateTime: now,
      _assignmentId: assignmentId,
      _accessPackageId: packageId,
      _requestor: requestor,
    });
  });
  return base;
}
