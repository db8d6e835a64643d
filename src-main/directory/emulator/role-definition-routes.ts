import { PERMISSIONS, requirePermission } from './access';
import { DIRECTORY_ROLES, type DirectoryRole } from './directory-roles';
import { contextUrl, reply, type GraphRequest } from './graph-context';
import { GraphError, notFound } from './graph-error';
import { matchesFilter, parseFilter } from './odata-filter';
import { applySelect, parseSelect } from './odata-query';

const DEFINITION_PROPS = ['id', 'displayName', 'description', 'isBuiltIn', 'isEnabled', 'templateId', 'version', 'resourceScopes', 'rolePermissions'] as const;
const DEFINITION_FILTER: Record<string, (role: DirectoryRole) => unknown> = {
  id: (r) => r.roleTemplateId,
  displayName: (r) => r.displayName,
  templateId: (r) => r.roleTemplateId,
  isBuiltIn: () => true,
};

/** A built-in role as `roleManagement/directory/roleDefinitions` lists it: its id is the template id. */
function definitionView(role: DirectoryRole): Record<string, unknown> {
  return {
    id: role.roleTemplateId,
    displayName: role.displayName,
    description: role.description,
    isBuiltIn: true,
    isEnabled: true,
    templateId: role.roleTemplateId,
    version: '1',
    resourceScopes: ['/'],
    // The actions each role allows are not modelled; the list is empty rather than invented.
    rolePermissions: [],
  };
}

/**
 * `GET /roleManagement/directory/roleDefinitions[/{id}]` ($filter on id, displayName,
 * templateId, isBuiltIn; $select): the roles an administrative unit can scope, by template id,
 * so a role's name is found from either the activated role or its definition.
 */
export function handleRoleDefinitions(request: GraphRequest): boolean {
  const { segments, method, caller, query } = request;
  if (segments[0] !== 'roleManagement' || segments[1] !== 'directory' || segments[2] !== 'roleDefinitions' || segments.length > 4) return false;
  if (method !== 'GET') throw new GraphError(405, 'Request_BadRequest', `The ${method} method is not supported on built-in role definitions.`);
  requirePermission(caller, 'directory', PERMISSIONS.roleRead);
  const select = parseSelect(query.get('$select'), 'unifiedRoleDefinition', DEFINITION_PROPS);
  const id = segments[3];
  if (id !== undefined) {
    const role = DIRECTORY_ROLES.find((r) => r.roleTemplateId.toLowerCase() === id.toLowerCase());
    if (!role) throw notFound('directory', id);
    reply(request, 200, { '@odata.context': contextUrl(request, 'roleManagement/directory/roleDefinitions/$entity'), ...applySelect(definitionView(role), select) });
    return true;
  }
  const filterText = query.get('$filter');
  const filter = filterText === null ? undefined : parseFilter(filterText, Object.keys(DEFINITION_FILTER), 'unifiedRoleDefinition');
  const roles = DIRECTORY_ROLES.filter((role) => !filter || matchesFilter(filter, (path) => DEFINITION_FILTER[path]!(role)));
  reply(request, 200, { '@odata.context': contextUrl(request, 'roleManagement/directory/roleDefinitions'), value: roles.map((role) => applySelect(definitionView(role), select)) });
  return true;
}
