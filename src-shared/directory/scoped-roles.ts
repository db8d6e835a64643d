import { z } from 'zod';

// Role members scoped to an administrative unit: which roles may be scoped, the body Graph takes
// to add one, and why Graph refuses one. Written once for the console's form, main (which sends
// the body) and the Graph emulator (which checks it).

/**
 * Built-in roles Entra lets an administrative unit scope, by role template id (the same in every
 * tenant). Graph answers 400 for any other role; the console offers only these.
 */
const SCOPABLE_ROLE_TEMPLATES: Readonly<Record<string, string>> = {
  'fe930be7-5e62-47db-91af-98c3a49a38b1': 'User Administrator',
  '729827e3-9c14-49f7-bb1b-9608f156bbb8': 'Helpdesk Administrator',
  'fdd7a751-b60b-444a-984c-02652fe8fa1c': 'Groups Administrator',
  'c4e39bd9-1100-46d3-8c65-fb160da0071f': 'Authentication Administrator',
  '7be44c8a-adaf-4e2a-84d6-ab2649e08a13': 'Privileged Authentication Administrator',
  '966707d0-3269-4727-9be2-8c3a10f19b9d': 'Password Administrator',
  '4d6ac14f-3453-41d0-bef9-a3e0c569773a': 'License Administrator',
  '7698a772-787b-4ac8-901f-60d6b08affd2': 'Cloud Device Administrator',
  '69091246-20e8-4a56-aa4d-066075b2a7a8': 'Teams Administrator',
  '3d762c5a-1b6c-493f-843e-55a3b42923d4': 'Teams Devices Administrator',
  'f28a1f50-f6e7-4571-818b-6a12f2af6b6c': 'SharePoint Administrator',
  '644ef478-e28f-4e28-b9dc-3fdde9aa0b1f': 'Printer Administrator',
};

export const isScopableRoleTemplate = (templateId: string | null | undefined): boolean =>
  typeof templateId === 'string' && Object.hasOwn(SCOPABLE_ROLE_TEMPLATES, templateId.toLowerCase());

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The body of POST /directory/administrativeUnits/{id}/scopedRoleMembers. `roleId` is the object
 * id of the activated directoryRole (what GET /directoryRoles lists as `id`), not its template
 * id; `roleMemberInfo.id` is the member's object id. The read-only properties Graph returns may
 * come back in a body and are ignored; anything else is refused, as Graph refuses it.
 */
export const scopedRoleMemberBodySchema = z.strictObject({
  roleId: z.string().regex(GUID, 'roleId must be the object id of a directory role'),
  roleMemberInfo: z.looseObject({ id: z.string().regex(GUID, 'roleMemberInfo.id must be the object id of a user') }),
  id: z.string().optional(),
  administrativeUnitId: z.string().optional(),
});
export type ScopedRoleMemberBody = z.infer<typeof scopedRoleMemberBodySchema>;

/** What the "Add role member" form holds: a role (directoryRole object id) and a person (user object id). */
export const newScopedRoleMemberSchema = z.object({
  roleId: z.string().trim().min(1, 'Choose a role.'),
  memberId: z.string().trim().min(1, 'Choose a person.'),
});
export type NewScopedRoleMember = z.infer<typeof newScopedRoleMemberSchema>;

export const toScopedRoleMemberBody = (values: NewScopedRoleMember): ScopedRoleMemberBody => ({
  roleId: values.roleId,
  roleMemberInfo: { id: values.memberId },
});

/**
 * Why Graph refused to add or remove a scoped role member, as far as the console can tell:
 * the person already has the role here, the role or person is not in the directory, the role
 * cannot be scoped, the unit or the membership is gone.
 */
const scopedRoleRefusals = ['duplicate', 'unknownRole', 'unknownPerson', 'notScopable', 'unitGone', 'membershipGone'] as const;
export type ScopedRoleRefusal = (typeof scopedRoleRefusals)[number];
export const scopedRoleRefusalSchema = z.enum(scopedRoleRefusals);
