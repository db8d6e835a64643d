import { describe, expect, it } from 'vitest';
import { assignmentFilterText, assignmentListQuery } from './assignment-list-query';

describe('assignment list query', () => {
  it('joins the chosen filters with and, quoting values as OData does', () => {
    expect(assignmentFilterText({})).toBeUndefined();
    expect(assignmentFilterText({ state: 'delivered', accessPackageId: 'p-1', policyId: "o'1", targetObjectId: 'u-1' })).toBe(
      "state eq 'delivered' and accessPackage/id eq 'p-1' and assignmentPolicy/id eq 'o''1' and target/objectId eq 'u-1'",
    );
  });

  it('selects plain columns and expands related ones, always with the id', () => {
    expect(assignmentListQuery({ state: 'expired' }, ['state', 'accessPackage', 'expiredDateTime'], 25)).toEqual({
      $filter: "state eq 'expired'",
      $select: 'id,state,expiredDateTime',
      $expand: 'accessPackage($select=id,displayName)',
      $top: '25',
      $count: 'true',
    });
    expect(assignmentListQuery({}, ['status'], 10)).toEqual({ $select: 'id,status', $top: '10', $count: 'true' });
  });
});
