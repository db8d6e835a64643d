import type { DirectoryRoleInfo, ScopedRoleMemberView } from '@shared/contract/directory';
import type { DirectoryUser } from '@shared/contract/directory-people';
import { ContractFailure } from '@shared/contract/result';
import { scopedRoleRefusalSchema, type ScopedRoleRefusal } from '@shared/directory/scoped-roles';

// Adding and removing role members of an administrative unit: which roles a person can still be
// given, and what to tell the person at the console when Graph says no.

/** A person as the picker and the sentences name them: display name, else sign-in name, else id. */
export const personName = (user: Pick<DirectoryUser, 'id' | 'displayName' | 'userPrincipalName'>): string =>
  user.displayName ?? user.userPrincipalName ?? user.id;

/** What a member row names: the person and the role, in words. */
export const memberNames = (member: ScopedRoleMemberView): MembershipNames => ({
  person: member.memberName ?? member.memberPrincipalName ?? member.memberId,
  role: member.roleName ?? 'this role',
});

/** The unit's membership giving this person this role, if there is one. */
export function heldMembership(
  members: readonly ScopedRoleMemberView[],
  roleId: string,
  memberId: string,
): ScopedRoleMemberView | undefined {
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  return members.find((m) => same(m.roleId, roleId) && same(m.memberId, memberId));
}

export interface RoleChoice {
  value: string;
  label: string;
  description: string;
  /** The chosen person has this role in the unit already: offered, but not pickable. */
  disabled: boolean;
}

/** The roles to choose from, by name, with the ones the chosen person already holds here disabled. */
export function roleChoices(roles: readonly DirectoryRoleInfo[], members: readonly ScopedRoleMemberView[], memberId: string): RoleChoice[] {
  return [...roles]
    .sort((a, b) => a.displayName.localeCompare(b.displayName))
    .map((role) => ({
      value: role.id,
      label: role.displayName,
      description: role.description ?? '',
      disabled: memberId !== '' && heldMembership(members, role.id, memberId) !== undefined,
    }));
}

/** What the add and remove sentences name. */
export interface MembershipNames {
  person: string;
  role: string;
}

function refusalOf(error: unknown): ScopedRoleRefusal | null {
  if (!(error instanceof ContractFailure)) return null;
  const parsed = scopedRoleRefusalSchema.safeParse((error.details as { refusal?: unknown } | undefined)?.refusal);
  return parsed.success ? parsed.data : null;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const codeOf = (error: unknown): string | null => (error instanceof ContractFailure ? error.code : null);

/** Sentences both actions share: permissions, and a unit that went away. */
function commonSentence(error: unknown, refusal: ScopedRoleRefusal | null): string | null {
  if (refusal === 'unitGone') return 'This administrative unit no longer exists: someone deleted it. Choose another unit.';
  if (codeOf(error) === 'forbidden')
    return 'You are not allowed to change who holds roles in this unit. It takes a Privileged Role Administrator, and the app needs the RoleManagement.ReadWrite.Directory permission.';
  return null;
}

/** Why a role could not be given, as a sentence naming the person and the role. */
export function addRefusalSentence(error: unknown, names: MembershipNames): string {
  const refusal = refusalOf(error);
  const common = commonSentence(error, refusal);
  if (common) return common;
  switch (refusal) {
    case 'duplicate':
      return `${names.person} already has ${names.role} in this unit.`;
    case 'notScopable':
      return `${names.role} cannot be limited to an administrative unit. Choose a role such as User Administrator or Helpdesk Administrator.`;
    case 'unknownRole':
      return `${names.role} is no longer an active role in this directory. Close this dialog and choose the role again.`;
    case 'unknownPerson':
      return `${names.person} is no longer in the directory. Choose someone else.`;
    default:
      return `${names.role} could not be given to ${names.person}: ${messageOf(error)}`;
  }
}

/** Why a role could not be taken away, as a sentence naming the person and the role. */
export function removeRefusalSentence(error: unknown, names: MembershipNames): string {
  const refusal = refusalOf(error);
  const common = commonSentence(error, refusal);
  if (common) return common;
  if (refusal === 'membershipGone') return `${names.person} no longer has ${names.role} in this unit: it was removed already.`;
  return `${names.role} could not be taken from ${names.person}: ${messageOf(error)}`;
}
