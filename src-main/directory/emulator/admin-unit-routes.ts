import { randomUUID } from 'node:crypto';
import { PERMISSIONS, requirePermission } from './access';
import { ADMIN_UNIT_PROPS, KIND, SCOPED_MEMBER_PROPS, publicView } from './directory-objects';
import type { DirectoryDeps } from './directory-deps';
import { contextUrl, reply, type GraphRequest } from './graph-context';
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
  filter: { id: (au) => au.id, displayName: (au) => au.displayName, description: (au) => au.description, visibility: (au) => au.visibility },
  orderBy: { displayName: (au) => au.displayName },
  search: { displayName: (au) => au.displayName, description: (au) => au.description },
  top: { default: 100, max: 999 },
};
/** Scoped role members take only $select (and pages), as Graph documents. */
const SCOPED_MEMBER_LIST: ListRules<Stored> = { type: 'scopedRoleMembership', properties: SCOPED_MEMBER_PROPS, directory: true, top: { default: 100, max: 999 } };

/** /directory/administrativeUnits[/{au}[/scopedRoleMembers[/{id}]]]: returns false for other paths. */
export async function handleAdminUnits(deps: DirectoryDeps, request: GraphRequest): Promise<boolean> {
  const { segments, method, query } = request;
  if (segments[0] !== 'directory' || segments[1] !== 'administrativeUnits' || segments.length > 5) return false;
  const [, , auId, sub, memberId] = segments;
  if (sub !== undefined && sub !== 'scopedRoleMembers') return false;

  if (sub === undefined) {
    requirePermission(request.caller, 'directory', PERMISSIONS.adminUnitRead);
    if (method !== 'GET') throw new GraphError(405, 'Request_BadRequest', `The ${method} method is not supported on administrativeUnits.`);
    const select = parseSelect(query.get('$select'), 'administrativeUnit', ADMIN_UNIT_PROPS);
    const expand = parseExpand(query.get('$expand'), 'administrativeUnit', { scopedRoleMembers: { type: 'scopedRoleMembership', properties: SCOPED_MEMBER_PROPS } });
    const render = (au: Record<string, unknown>) => {
      const out = applySelect(publicView(au), select);
      for (const e of expand) out.scopedRoleMembers = deps.store.objects(KIND.scopedRoleMember, String(au.id)).map((m) => applySelect(publicView(m), e.select));
      return out;
    };
    if (auId === '$count') {
      sendText(request.res, 200, String(countOf(request, deps.store.objects(KIND.adminUnit), ADMIN_UNIT_LIST)), request.ids);
      return true;
    }
    if (auId === undefined) {
      reply(request, 200, listBody(contextUrl(request, 'directory/administrativeUnits'), queryList(request, deps.store.objects(KIND.adminUnit), ADMIN_UNIT_LIST), render));
      return true;
    }
    const au = deps.store.object(KIND.adminUnit, auId);
    if (!au) throw notFound('directory', auId);
    reply(request, 200, { '@odata.context': contextUrl(request, 'directory/administrativeUnits/$entity'), ...render(au) });
    return true;
  }

  const au = deps.store.object(KIND.adminUnit, auId!);
  const writing = method !== 'GET';
  requirePermission(request.caller, 'directory', writing ? PERMISSIONS.roleWrite : PERMISSIONS.roleRead);
  if (!au) throw notFound('directory', auId!);
  const context = `directory/administrativeUnits('${auId}')/scopedRoleMembers`;

  if (method === 'GET') {
    const select = parseSelect(query.get('$select'), 'scopedRoleMembership', SCOPED_MEMBER_PROPS);
    if (memberId === undefined) {
      const page = queryList(request, deps.store.objects(KIND.scopedRoleMember, auId), SCOPED_MEMBER_LIST);
      reply(request, 200, listBody(contextUrl(request, context), page, (m) => applySelect(publicView(m), select)));
      return true;
    }
    const member = deps.store.object(KIND.scopedRoleMember, memberId);
    if (!member || member.administrativeUnitId !== auId) throw notFound('directory', memberId);
    reply(request, 200, { '@odata.context': contextUrl(request, `${context}${select ? `(${select.join(',')})` : ''}/$entity`), ...applySelect(publicView(member), select) });
    return true;
  }

  if (method === 'POST' && memberId === undefined) {
    const { role, user } = checkScopedMemberBody(await readJsonObject(request.req), {
      role: findRole,
      user: (id) => findUser(deps.principals, id),
      members: deps.store.objects(KIND.scopedRoleMember, auId),
    });
    const member = { id: randomUUID(), roleId: role.id, administrativeUnitId: auId, roleMemberInfo: { id: user.id, displayName: user.displayName, userPrincipalName: user.userPrincipalName } };
    deps.store.transaction(() => deps.store.putObject(KIND.scopedRoleMember, member.id, auId!, member));
    reply(request, 201, { '@odata.context': contextUrl(request, `${context}/$entity`), ...member });
    return true;
  }

  if (method === 'DELETE' && memberId !== undefined) {
    const member = deps.store.object(KIND.scopedRoleMember, memberId);
    if (!member || member.administrativeUnitId !== auId) throw notFound('directory', memberId);
    deps.store.transaction(() => deps.store.deleteObject(KIND.scopedRoleMember, memberId));
    reply(request, 204, undefined);
    return true;
  }
  throw new GraphError(405, 'Request_BadRequest', `The ${method} method is not supported on scopedRoleMembers.`);
}
