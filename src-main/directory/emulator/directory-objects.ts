// Directory objects are kept as JSON in the `objects` table: the Graph properties as they are
// returned, plus references to related objects under `_`-prefixed keys (never sent).

export const KIND = {
  catalog: 'accessPackageCatalog',
  accessPackage: 'accessPackage',
  policy: 'accessPackageAssignmentPolicy',
  assignment: 'accessPackageAssignment',
  request: 'accessPackageAssignmentRequest',
  adminUnit: 'administrativeUnit',
  scopedRoleMember: 'scopedRoleMembership',
  /** Entitlement management role assignments (Catalog owner of one catalog). */
  catalogRoleAssignment: 'entitlementRoleAssignment',
  /** A catalog's custom workflow extensions (Logic Apps a policy calls at a stage of a request). */
  customExtension: 'customCalloutExtension',
} as const;

export interface NavigationTarget {
  type: string;
  properties: readonly string[];
  /** What may be expanded in turn inside this one's `$expand=x($expand=...)`. */
  navigation?: readonly string[];
}

export const CUSTOM_EXTENSION_PROPS = [
  'id',
  'displayName',
  'description',
  'createdDateTime',
  'lastModifiedDateTime',
  'endpointConfiguration',
  'authenticationConfiguration',
  'clientConfiguration',
  'callbackConfiguration',
] as const;
export const CATALOG_PROPS = [
  'id',
  'displayName',
  'description',
  'catalogType',
  'state',
  'isExternallyVisible',
  'createdDateTime',
  'modifiedDateTime',
] as const;
export const PACKAGE_PROPS = ['id', 'displayName', 'description', 'isHidden', 'createdDateTime', 'modifiedDateTime'] as const;
export const POLICY_PROPS = [
  'id',
  'displayName',
  'description',
  'allowedTargetScope',
  'specificAllowedTargets',
  'automaticRequestSettings',
  'createdDateTime',
  'modifiedDateTime',
  'expiration',
  'requestorSettings',
  'requestApprovalSettings',
  'reviewSettings',
  'notificationSettings',
  'questions',
  'customExtensionStageSettings',
] as const;
export const SUBJECT_PROPS = [
  'id',
  'displayName',
  'email',
  'objectId',
  'principalName',
  'subjectType',
  'onPremisesSecurityIdentifier',
] as const;
export const ASSIGNMENT_PROPS = ['id', 'state', 'status', 'expiredDateTime', 'schedule', 'customExtensionCalloutInstances'] as const;
export const REQUEST_PROPS = [
  'id',
  'requestType',
  'state',
  'status',
  'createdDateTime',
  'completedDateTime',
  'justification',
  'schedule',
  'answers',
  'customExtensionCalloutInstances',
] as const;
export const ADMIN_UNIT_PROPS = [
  'id',
  'displayName',
  'description',
  'visibility',
  'deletedDateTime',
  'isMemberManagementRestricted',
  'membershipType',
  'membershipRule',
  'membershipRuleProcessingState',
] as const;
export const SCOPED_MEMBER_PROPS = ['id', 'roleId', 'administrativeUnitId', 'roleMemberInfo'] as const;
export const ROLE_ASSIGNMENT_PROPS = ['id', 'principalId', 'roleDefinitionId', 'appScopeId', 'directoryScopeId'] as const;

/** The Graph view of a stored object: without the internal references. */
export function publicView(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) if (!key.startsWith('_')) out[key] = value;
  return out;
}

export function ref(data: Record<string, unknown>, key: string): string {
  return typeof data[key] === 'string' ? (data[key] as string) : '';
}
