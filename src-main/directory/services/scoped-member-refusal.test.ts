import { describe, expect, it } from 'vitest';
import { scopedMemberRefusal, type GraphRefusal } from './scoped-member-refusal';

const ids = {
  administrativeUnitId: 'au-1',
  roleId: '729827e3-9c14-49f7-bb1b-9608f156bbb8',
  memberId: '0a1b2c3d-0000-4000-a000-00000000a7a7',
};
const removing = { administrativeUnitId: 'au-1', membershipId: 'zTVcj8mS-0iwqO8c' };
const bad = (message: string): GraphRefusal => ({ status: 400, code: 'Request_BadRequest', message });
const missing = (what: string): GraphRefusal => ({
  status: 404,
  code: 'Request_ResourceNotFound',
  message: `Resource '${what}' does not exist or one of its queried reference-property objects are not present.`,
});

describe('scopedMemberRefusal', () => {
  it.each([
    [
      'a duplicate',
      bad('A conflicting object with one or more of the specified property values is present in the directory.'),
      ids,
      'duplicate',
    ],
    ['a 409', { status: 409, code: 'Conflict', message: 'Conflict.' }, ids, 'duplicate'],
    [
      'a role a unit cannot scope',
      bad(`Role '${ids.roleId}' is not supported for scoped role assignment on an administrative unit.`),
      ids,
      'notScopable',
    ],
    ['an unknown role', bad("Invalid value specified for property 'roleId' of resource 'ScopedRoleMembership'."), ids, 'unknownRole'],
    ['a malformed member id', bad("Invalid object identifier 'pat'."), ids, 'unknownPerson'],
    ['a person nobody is', missing(ids.memberId), ids, 'unknownPerson'],
    ['a role named in a 404', missing(ids.roleId), ids, 'unknownRole'],
    ['a unit that is gone', missing('au-1'), ids, 'unitGone'],
    ['a membership already removed', missing(removing.membershipId), removing, 'membershipGone'],
    [
      'a 404 naming nothing while removing',
      { status: 404, code: 'Request_ResourceNotFound', message: 'Not found.' },
      removing,
      'membershipGone',
    ],
    [
      'no permission',
      { status: 403, code: 'Authorization_RequestDenied', message: 'Insufficient privileges to complete the operation.' },
      ids,
      null,
    ],
    ['throttling', { status: 429, code: 'TooManyRequests', message: 'Too many requests.' }, ids, null],
    ['another 400', bad('Something else went wrong.'), ids, null],
  ] as const)('tells %s', (_what, error, named, expected) => {
    expect(scopedMemberRefusal(error, named)).toBe(expected);
  });
});
