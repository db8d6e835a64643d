import { PERMISSIONS, requirePermission } from './access';
import { DIRECTORY_ROLES, findRole, type DirectoryRole } from './directory-roles';
import { contextUrl, reply, type GraphRequest } from './graph-context';
import { resource, type GraphRoute } from './graph-route';
import { badRequest, GraphError, notFound } from './graph-error';
import { readJsonObject, sendText } from './graph-http';
import { countOf, listBody, queryList, type ListRules } from './list-query';
import { applySelect, parseSelect } from './odata-query';
import { findUser, type Principals, type UserPrincipal } from './principals';

const USER_PROPS = [
  'id',
  'displayName',
  'userPrincipalName',
  'mail',
  'givenName',
  'surname',
  'jobTitle',
  'businessPhones',
  'mobilePhone',
  'officeLocation',
  'preferredLanguage',
] as const;
const ROLE_PROPS = ['id', 'displayName', 'description', 'roleTemplateId'] as const;
const USER_NAMES: Record<string, (user: UserPrincipal) => unknown> = {
  displayName: (u) => u.displayName,
  userPrincipalName: (u) => u.userPrincipalName,
  mail: (u) => u.userPrincipalName,
  givenName: (u) => u.displayName.split(' ')[0] ?? null,
  surname: (u) => u.displayName.split(' ').slice(1).join(' ') || null,
};
/** As Graph's directory lists users: filter on ids and names, sort by name, search names (advanced queries). */
const USER_LIST: ListRules<UserPrincipal> = {
  type: 'user',
  properties: USER_PROPS,
  directory: true,
  filter: { id: (u) => u.id, ...USER_NAMES },
  orderBy: { displayName: (u) => u.displayName, userPrincipalName: (u) => u.userPrincipalName },
  search: USER_NAMES,
  top: { default: 100, max: 999 },
};
const ROLE_LIST: ListRules<DirectoryRole> = {
  type: 'directoryRole',
  properties: ROLE_PROPS,
  directory: true,
  filter: { id: (r) => r.id, displayName: (r) => r.displayName, roleTemplateId: (r) => r.roleTemplateId },
  top: { default: 999, max: 999 },
};
const USER_READ_ALL = ['User.Read.All', 'User.ReadBasic.All', 'Directory.Read.All', 'Directory.ReadWrite.All'];

function userView(user: UserPrincipal): Record<string, unknown> {
  return {
    id: user.id,
    displayName: user.displayName,
    userPrincipalName: user.userPrincipalName,
    mail: user.userPrincipalName,
    givenName: user.displayName.split(' ')[0] ?? null,
    surname: user.displayName.split(' ').slice(1).join(' ') || null,
    jobTitle: null,
    businessPhones: [],
    mobilePhone: null,
    officeLocation: null,
    preferredLanguage: 'en-US',
  };
}

/** `/$count` answers the number as text. */
function sendCount(request: GraphRequest, count: number): void {
  sendText(request.res, 200, String(count), request.ids);
}

const roleView = (role: DirectoryRole): Record<string, unknown> => ({ ...role });

/**
 * People and roles: `/me`, `/users` (list with $filter/$search/$orderby/$count/$top and skip
 * tokens, `/users/$count`, one by id or UPN),
 * `/directoryRoles` (the activated roles scoped role members name by roleId) and
 * `POST /directoryObjects/getByIds` (names and kinds of many objects in one call).
 */
export function peopleRoutes(principals: Principals): GraphRoute[] {
  /** A user token reads one user with User.Read; a list (and its count) needs more. */
  const mayReadUsers = ({ caller }: GraphRequest, one: boolean) =>
    requirePermission(caller, 'directory', caller.kind === 'user' && one ? PERMISSIONS.userRead : USER_READ_ALL);
  const userSelect = ({ query }: GraphRequest) => parseSelect(query.get('$select'), 'user', USER_PROPS);
  const roleSelect = (request: GraphRequest) => {
    requirePermission(request.caller, 'directory', PERMISSIONS.roleRead);
    return parseSelect(request.query.get('$select'), 'directoryRole', ROLE_PROPS);
  };
  return [
    {
      method: 'GET',
      path: '/me',
      handler: (request) => {
        const { caller } = request;
        if (!caller.user) throw badRequest('BadRequest', '/me request is only valid with delegated authentication flow.');
        requirePermission(caller, 'directory', PERMISSIONS.userRead);
        reply(request, 200, { '@odata.context': contextUrl(request, 'users/$entity'), ...userView(caller.user) });
      },
    },
    {
      method: 'GET',
      path: '/users',
      handler: (request) => {
        mayReadUsers(request, false);
        const select = userSelect(request);
        reply(
          request,
          200,
          listBody(contextUrl(request, 'users'), queryList(request, principals.users, USER_LIST), (user) =>
            applySelect(userView(user), select),
          ),
        );
      },
    },
    {
      method: 'GET',
      path: '/users/$count',
      handler: (request) => {
        mayReadUsers(request, true);
        sendCount(request, countOf(request, principals.users, USER_LIST));
      },
    },
    {
      method: 'GET',
      path: '/users/:id',
      handler: (request) => {
        mayReadUsers(request, true);
        const select = userSelect(request);
        const user = findUser(principals, request.params.id!);
        if (!user) throw notFound('directory', request.params.id!);
        reply(request, 200, { '@odata.context': contextUrl(request, 'users/$entity'), ...applySelect(userView(user), select) });
      },
    },
    {
      method: 'GET',
      path: '/directoryRoles',
      handler: (request) => {
        const select = roleSelect(request);
        reply(
          request,
          200,
          listBody(contextUrl(request, 'directoryRoles'), queryList(request, DIRECTORY_ROLES, ROLE_LIST), (role) =>
            applySelect(roleView(role), select),
          ),
        );
      },
    },
    {
      method: 'GET',
      path: '/directoryRoles/:id',
      handler: (request) => {
        const select = roleSelect(request);
        const role = findRole(request.params.id!);
        if (!role) throw notFound('directory', request.params.id!);
        reply(request, 200, { '@odata.context': contextUrl(request, 'directoryRoles/$entity'), ...applySelect(roleView(role), select) });
      },
    },
    ...resource('/directoryObjects/getByIds', { POST: (request) => getByIds(principals, request) }, ({ method }) => {
      throw new GraphError(405, 'Request_BadRequest', `The ${method} method is not supported on getByIds.`);
    }),
  ];
}

/** POST /directoryObjects/getByIds: the objects of many ids, in the order asked. */
async function getByIds(principals: Principals, request: GraphRequest): Promise<void> {
  requirePermission(request.caller, 'directory', ['Directory.Read.All', 'Directory.ReadWrite.All', 'User.Read.All', 'User.ReadBasic.All']);
  const body = await readJsonObject(request.req);
  for (const key of Object.keys(body))
    if (key !== 'ids' && key !== 'types') throw badRequest('Request_BadRequest', `The property '${key}' does not exist on getByIds.`);
  if (!Array.isArray(body.ids) || body.ids.some((v) => typeof v !== 'string'))
    throw badRequest('Request_BadRequest', "Invalid value specified for property 'ids': a list of object ids is required.");
  if (body.ids.length > 1000) throw badRequest('Request_BadRequest', 'getByIds takes at most 1000 ids.');
  const types = Array.isArray(body.types) ? body.types.map((t) => String(t).toLowerCase()) : undefined;
  reply(request, 200, {
    '@odata.context': contextUrl(request, 'directoryObjects'),
    value: (body.ids as string[]).flatMap((wanted) => objectById(principals, wanted, types)),
  });
}

/** A user, service principal or role by object id, as getByIds lists it (with its @odata.type). */
function objectById(principals: Principals, id: string, types: string[] | undefined): Record<string, unknown>[] {
  const allowed = (type: string) => !types || types.includes(type.toLowerCase());
  const user = principals.users.find((u) => u.id.toLowerCase() === id.toLowerCase());
  if (user && allowed('user')) return [{ '@odata.type': '#microsoft.graph.user', ...userView(user) }];
  const app = principals.apps.find((a) => a.servicePrincipalId.toLowerCase() === id.toLowerCase());
  if (app && allowed('servicePrincipal'))
    return [
      {
        '@odata.type': '#microsoft.graph.servicePrincipal',
        id: app.servicePrincipalId,
        appId: app.clientId,
        displayName: app.displayName,
        servicePrincipalType: 'Application',
      },
    ];
  const role = findRole(id);
  if (role && allowed('directoryRole')) return [{ '@odata.type': '#microsoft.graph.directoryRole', ...roleView(role) }];
  return [];
}
