import { randomUUID } from 'node:crypto';
import { PERMISSIONS, requirePermission } from './access';
import { ADMIN_UNIT_PROPS, KIND, SCOPED_MEMBER_PROPS, publicView } from './directory-objects';
import type { DirectoryDeps } from './directory-deps';
import { contextUrl, reply, type GraphRequest } from './graph-context';
import { resource, type GraphHandler, type GraphRoute } from './graph-route';
import { GraphError, notFound } from './graph-error';
import { readJsonObject, sendText } from './graph-http';
import { countOf, listBody, queryList, type ListRules } from './list-query';
import { applySelect, parseExpand, parseSelect } from './odata-query';
import { findUser } from './principals';
import { findRole } from './directory-roles';
import { checkScopedMemberBody } from './scoped-member-body';

type Stored = Record<string, unknown>;
/** Administrative units are directory objects: advanced queries for count, search and filtered sorting. */
const ADMIN_UNIT_LIST: ListRules<Stored> = {
  type: 'administrativeUnit',
  properties: ADMIN_UNIT_PROPS,
  directory: true,
  filter: {
    id: (au) => au.id,
    displayName: (au) => au.displayName,
    description: (au) => au.description,
    visibility: (au) => au.visibility,
  },
  orderBy: { displayName: (au) => au.displayName },
  search: { displayName: (au) => au.displayName, description: (au) => au.description },
  top: { default: 100, max: 999 },
};
/** Scoped role members take only $select (and pages), as Graph documents. */
const SCOPED_MEMBER_LIST: ListRules<Stored> = {
  type: 'scopedRoleMembership',
  properties: SCOPED_MEMBER_PROPS,
  directory: true,
  top: { default: 100, max: 999 },
};

const UNITS = '/directory/administrativeUnits';

/** /directory/administrativeUnits[/{au}[/scopedRoleMembers[/{id}]]]: units are read; their scoped role members listed, added and removed. */
export function adminUnitRoutes(deps: DirectoryDeps): GraphRoute[] {
  const mayReadUnits = ({ caller }: GraphRequest) => requirePermission(caller, 'directory', PERMISSIONS.adminUnitRead);
  /** Units are read only: another method is 405 once the caller may read them. */
  const unitsReadOnly: GraphHandler = (request) => {
    mayReadUnits(request);
    throw new GraphError(405, 'Request_BadRequest', `The ${request.method} method is not supported on administrativeUnits.`);
  };
  /** A read of units: $select and $expand (scopedRoleMembers) apply to each unit shown. */
  const units =
    (handler: (request: GraphRequest, render: (au: Stored) => Stored) => void): GraphHandler =>
    (request) => {
      mayReadUnits(request);
      const select = parseSelect(request.query.get('$select'), 'administrativeUnit', ADMIN_UNIT_PROPS);
      const expand = parseExpand(request.query.get('$expand'), 'administrativeUnit', {
        scopedRoleMembers: { type: 'scopedRoleMembership', properties: SCOPED_MEMBER_PROPS },
      });
      handler(request, (au) => {
        const out = applySelect(publicView(au), select);
        for (const e of expand)
          out.scopedRoleMembers = deps.store.objects(KIND.scopedRoleMember, String(au.id)).map((m) => applySelect(publicView(m), e.select));
        return out;
      });
    };
  /** Members of a unit: the unit looked up, the role permission (write for a change) checked, then the unit must exist. */
  const members =
    (handler: (request: GraphRequest, auId: string, context: string) => void | Promise<void>): GraphHandler =>
    (request) => {
      const auId = request.params.au!;
      const au = deps.store.object(KIND.adminUnit, auId);
      requirePermission(request.caller, 'directory', request.method !== 'GET' ? PERMISSIONS.roleWrite : PERMISSIONS.roleRead);
      if (!au) throw notFound('directory', auId);
      return handler(request, auId, `directory/administrativeUnits('${auId}')/scopedRoleMembers`);
    };
  const membersNotSupported = members(({ method }) => {
    throw new GraphError(405, 'Request_BadRequest', `The ${method} method is not supported on scopedRoleMembers.`);
  });
  const memberSelect = ({ query }: GraphRequest) => parseSelect(query.get('$select'), 'scopedRoleMembership', SCOPED_MEMBER_PROPS);
  const list = units((request, render) =>
    reply(
      request,
      200,
      listBody(
        contextUrl(request, 'directory/administrativeUnits'),
        queryList(request, deps.store.objects(KIND.adminUnit), ADMIN_UNIT_LIST),
        render,
      ),
    ),
  );
  const count = units((request) =>
    sendText(request.res, 200, String(countOf(request, deps.store.objects(KIND.adminUnit), ADMIN_UNIT_LIST)), request.ids),
  );
  const one = units((request, render) => {
    const au = deps.store.object(KIND.adminUnit, request.params.au!);
    if (!au) throw notFound('directory', request.params.au!);
    reply(request, 200, { '@odata.context': contextUrl(request, 'directory/administrativeUnits/$entity'), ...render(au) });
  });
  return [
    ...resource(UNITS, { GET: list }, unitsReadOnly),
    ...resource(`${UNITS}/$count`, { GET: count }, unitsReadOnly),
    ...resource(`${UNITS}/:au`, { GET: one }, unitsReadOnly),
    ...resource(
      `${UNITS}/:au/scopedRoleMembers`,
      {
        GET: members((request, auId, context) => {
          const select = memberSelect(request);
          const page = queryList(request, deps.store.objects(KIND.scopedRoleMember, auId), SCOPED_MEMBER_LIST);
          reply(
            request,
            200,
            listBody(contextUrl(request, context), page, (m) => applySelect(publicView(m), select)),
          );
        }),
        POST: members(async (request, auId, context) => {
          const { role, user } = checkScopedMemberBody(await readJsonObject(request.req), {
            role: findRole,
            user: (id) => findUser(deps.principals, id),
            members: deps.store.objects(KIND.scopedRoleMember, auId),
          });
          const member = {
            id: randomUUID(),
            roleId: role.id,
            administrativeUnitId: auId,
            roleMemberInfo: { id: user.id, displayName: user.displayName, userPrincipalName: user.userPrincipalName },
          };
          deps.store.transaction(() => deps.store.putObject(KIND.scopedRoleMember, member.id, auId, member));
          reply(request, 201, { '@odata.context': contextUrl(request, `${context}/$entity`), ...member });
        }),
      },
      membersNotSupported,
    ),
    ...resource(
      `${UNITS}/:au/scopedRoleMembers/:member`,
      {
        GET: members((request, auId, context) => {
          const select = memberSelect(request);
          const memberId = request.params.member!;
          const member = deps.store.object(KIND.scopedRoleMember, memberId);
          if (!member || member.administrativeUnitId !== auId) throw notFound('directory', memberId);
          reply(request, 200, {
            '@odata.context': contextUrl(request, `${context}${select ? `(${select.join(',')})` : ''}/$entity`),
            ...applySelect(publicView(member), select),
          });
        }),
        DELETE: members((request, auId) => {
          const memberId = request.params.member!;
          const member = deps.store.object(KIND.scopedRoleMember, memberId);
          if (!member || member.administrativeUnitId !== auId) throw notFound('directory', memberId);
          deps.store.transaction(() => deps.store.deleteObject(KIND.scopedRoleMember, memberId));
          reply(request, 204, undefined);
        }),
      },
      membersNotSupported,
    ),
  ];
}
