import { isScopableRoleTemplate } from '@shared/directory/scoped-roles';
import { DEMO_IDS } from './demo-data';
import { guidFrom } from './principals';
import { TENANT_ROLES } from './tenant-roles';

/** An activated directory role as `/directoryRoles` returns it. */
export interface DirectoryRole {
  id: string;
  displayName: string;
  description: string;
  roleTemplateId: string;
}

// The roles activated in every emulated tenant, with Entra's own template ids: those an
// administrative unit can scope, and the tenant-wide roles the emulator's users may hold (which
// it cannot). The object id of User Administrator is the one the demo data names.
const TEMPLATES: ReadonlyArray<[templateId: string, displayName: string, description: string]> = [
  [
    'fe930be7-5e62-47db-91af-98c3a49a38b1',
    'User Administrator',
    'Can manage all aspects of users and groups, including resetting passwords for limited admins.',
  ],
  [
    '729827e3-9c14-49f7-bb1b-9608f156bbb8',
    'Helpdesk Administrator',
    'Can reset passwords for non-administrators and Helpdesk Administrators.',
  ],
  [
    'fdd7a751-b60b-444a-984c-02652fe8fa1c',
    'Groups Administrator',
    'Members of this role can create/manage groups, create/manage groups settings like naming and expiration policies, and view groups activity and audit reports.',
  ],
  [
    'c4e39bd9-1100-46d3-8c65-fb160da0071f',
    'Authentication Administrator',
    'Can access to view, set and reset authentication method information for any non-admin user.',
  ],
  [
    '966707d0-3269-4727-9be2-8c3a10f19b9d',
    'Password Administrator',
    'Can reset passwords for non-administrators and Password Administrators.',
  ],
  ['4d6ac14f-3453-41d0-bef9-a3e0c569773a', 'License Administrator', 'Can manage product licenses on users and groups.'],
  [
    TENANT_ROLES['Global Administrator'],
    'Global Administrator',
    'Can manage all aspects of Microsoft Entra ID and Microsoft services that use Microsoft Entra identities.',
  ],
  [
    TENANT_ROLES['Identity Governance Administrator'],
    'Identity Governance Administrator',
    'Manage access using Microsoft Entra ID for identity governance scenarios.',
  ],
];

export const DIRECTORY_ROLES: readonly DirectoryRole[] = TEMPLATES.map(([roleTemplateId, displayName, description]) => ({
  id: roleTemplateId === DEMO_IDS.role ? DEMO_IDS.role : guidFrom(`role:${roleTemplateId}`),
  displayName,
  description,
  roleTemplateId,
}));

export const findRole = (id: string): DirectoryRole | undefined =>
  DIRECTORY_ROLES.find((role) => role.id.toLowerCase() === id.toLowerCase());

/** Whether Entra lets an administrative unit scope this role (User Administrator yes, Global Administrator no). */
export const isScopable = (role: DirectoryRole): boolean => isScopableRoleTemplate(role.roleTemplateId);
