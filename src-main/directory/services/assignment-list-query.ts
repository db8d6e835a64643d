import type { AssignmentColumn, AssignmentFilter } from '@shared/contract/directory';

// The assignment list as one Graph query: filters become `$filter` clauses, chosen columns
// become `$select` (plain properties) and `$expand` (related objects, each reduced to what a
// cell shows), so Graph sends only what the table displays.

const NAVIGATION: Partial<Record<AssignmentColumn, string>> = {
  target: 'target($select=id,objectId,displayName,principalName,email,subjectType)',
  accessPackage: 'accessPackage($select=id,displayName)',
  assignmentPolicy: 'assignmentPolicy($select=id,displayName)',
};

const quote = (value: string) => `'${value.replace(/'/g, "''")}'`;

export function assignmentFilterText(filter: AssignmentFilter): string | undefined {
  const clauses: string[] = [];
  if (filter.state) clauses.push(`state eq ${quote(filter.state)}`);
  if (filter.accessPackageId) clauses.push(`accessPackage/id eq ${quote(filter.accessPackageId)}`);
  if (filter.policyId) clauses.push(`assignmentPolicy/id eq ${quote(filter.policyId)}`);
  if (filter.targetObjectId) clauses.push(`target/objectId eq ${quote(filter.targetObjectId)}`);
  return clauses.length > 0 ? clauses.join(' and ') : undefined;
}

export function assignmentListQuery(
  filter: AssignmentFilter,
  columns: readonly AssignmentColumn[],
  pageSize: number,
): Record<string, string> {
  const select = ['id', ...columns.filter((column) => !NAVIGATION[column])];
  const expand = columns.flatMap((column) => NAVIGATION[column] ?? []);
  const $filter = assignmentFilterText(filter);
  return {
    ...($filter ? { $filter } : {}),
    $select: [...new Set(select)].join(','),
    ...(expand.length > 0 ? { $expand: expand.join(',') } : {}),
    $top: String(pageSize),
    $count: 'true',
  };
}
