import type { ScopedRoleRefusal } from '@shared/directory/scoped-roles';

/** The parts of a Graph error that tell why a scoped role member was refused. */
export interface GraphRefusal {
  status: number;
  code: string;
  message: string;
}

/** The ids the request named: a refusal that quotes one of them is about that object. */
export interface ScopedMemberIds {
  administrativeUnitId: string;
  roleId?: string;
  memberId?: string;
  membershipId?: string;
}

const mentions = (message: string, id: string | undefined): boolean =>
  id !== undefined && id !== '' && message.toLowerCase().includes(id.toLowerCase());

/**
 * Why Graph refused to add or remove a scoped role member, from its status and words (Graph
 * answers most of these 400 Request_BadRequest, so the message decides), or null when it is
 * something else (no permission, throttling, a malformed body): that error is shown as it is.
 */
export function scopedMemberRefusal(error: GraphRefusal, ids: ScopedMemberIds): ScopedRoleRefusal | null {
  const { status, message } = error;
  if (status === 404) {
    // A 404 names the object it could not find: the person, the membership or the unit.
    if (mentions(message, ids.memberId)) return 'unknownPerson';
    if (mentions(message, ids.membershipId)) return 'membershipGone';
    if (mentions(message, ids.roleId)) return 'unknownRole';
    return ids.membershipId !== undefined ? 'membershipGone' : 'unitGone';
  }
  if (status === 409 || /conflicting object|already exist/i.test(message)) return 'duplicate';
  if (status !== 400) return null;
  if (/not supported for scoped|scoped role assignment|administrative unit scope|cannot be scoped/i.test(message)) return 'notScopable';
  if (/property 'roleId'/i.test(message) || mentions(message, ids.roleId)) return 'unknownRole';
  if (/invalid object identifier/i.test(message) || mentions(message, ids.memberId)) return 'unknownPerson';
  return null;
}
