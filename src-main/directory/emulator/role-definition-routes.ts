import { PERMISSIONS, requirePermission } from './access';
import { DIRECTORY_ROLES, type DirectoryRole } from './directory-roles';
import { contextUrl, reply, type GraphRequest } from './graph-context';
import { resource, type GraphHandler, type GraphRoute } from './graph-route';
import { GraphError, notFound } from './graph-error';
import { listBody, queryList, type ListRules } from './list-query';
import { applySelect, parseSelect } from './odata-query';

const DEFINITION_PROPS = [
  'id',
  'displayName',
  'description',
  'isBuiltIn',
  'isEnabled',
  'templateId',
  'version',
  'resourceScopes',
  'rolePermissions',
] as const;
/** Role management (not the directory's own store): $filter and $select, no sorting. */
const DEFINITION_LIST: ListRules<DirectoryRole> = {
  type: 'unifiedRoleDefinition',
  properties: DEFINITION_PROPS,
  filter: { id: (r) => r.roleTemplateId, displayName: (r) => r.displayName, templateId: (r) => r.roleTemplateId, isBuiltIn: () => true },
  top: { default: 999, max: 999 },
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
 * templateId, isBuiltIn; $select): the built-in roles activated in the emulator, by template id,
 * so a role's name is found from either the activated role or its definition.
 */
export function roleDefinitionRoutes(): GraphRoute[] {
  const readOnly: GraphHandler = ({ method }) => {
    throw new GraphError(405, 'Request_BadRequest', `The ${method} method is not supported on built-in role definitions.`);
  };
  const select = ({ caller, query }: GraphRequest) => {
    requirePermission(caller, 'directory', PERMISSIONS.roleRead);
    return parseSelect(query.get('$select'), 'unifiedRoleDefinition', DEFINITION_PROPS);
  };
  return [
    ...resource(
      '/roleManagement/directory/roleDefinitions',
      {
        GET: (request) => {
          const selected = select(request);
          const page = queryList(request, DIRECTORY_ROLES, DEFINITION_LIST);
          reply(
            request,
            200,
            listBody(contextUrl(request, 'roleManagement/directory/roleDefinitions'), page, (role) =>
              applySelect(definitionView(role), selected),
            ),
          );
        },
      },
      readOnly,
    ),
    ...resource(
      '/roleManagement/directory/roleDefinitions/:id',
      {
        GET: (request) => {
          const selected = select(request);
          const id = request.params.id!;
          const role = DIRECTORY_ROLES.find((r) => r.roleTemplateId.toLowerCase() === id.toLowerCase());
          if (!role) throw notFound('directory', id);
          reply(request, 200, {
            '@odata.context': contextUrl(request, 'roleManagement/directory/roleDefinitions/$entity'),
            ...applySelect(definitionView(role), selected),
          });
        },
      },
      readOnly,
    ),
  ];
}
