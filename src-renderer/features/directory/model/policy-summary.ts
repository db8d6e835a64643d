import type { AssignmentPolicy } from '@shared/contract/directory';
import { durationParts } from './iso-duration-parts';

// One-line descriptions of a policy for the policy table, in the admin center's words.

export const TARGET_SCOPE_LABELS: Record<string, string> = {
  notSpecified: 'No one (requests off)',
  specificDirectoryUsers: 'Specific users and groups in the directory',
  specificConnectedOrganizationUsers: 'Specific connected organizations',
  specificDirectoryServicePrincipals: 'Specific service principals',
  allMemberUsers: 'All members (excluding guests)',
  allDirectoryUsers: 'All users (including guests)',
  allDirectoryServicePrincipals: 'All service principals',
  allConfiguredConnectedOrganizationUsers: 'All configured connected organizations',
  allExternalUsers: 'All users not yet in the directory',
};

export const targetScopeLabel = (scope: string | null | undefined): string => TARGET_SCOPE_LABELS[scope ?? 'notSpecified'] ?? scope ?? '';

export function durationText(iso: string | null | undefined): string {
  const parts = durationParts(iso);
  if (!parts) return iso ?? '';
  const unit = parts.amount === 1 ? parts.unit.slice(0, -1) : parts.unit;
  return `${parts.amount} ${unit}`;
}

export function approvalSummary(policy: Pick<AssignmentPolicy, 'requestApprovalSettings'>): string {
  const approval = policy.requestApprovalSettings as
    { isApprovalRequiredForAdd?: boolean | null; stages?: unknown[] | null } | null | undefined;
  if (!approval?.isApprovalRequiredForAdd) return 'No approval';
  const stages = approval.stages?.length ?? 0;
  return stages === 1 ? '1 stage' : `${stages} stages`;
}

export function expirationSummary(policy: Pick<AssignmentPolicy, 'expiration'>): string {
  const expiration = policy.expiration as { type?: string; duration?: string | null; endDateTime?: string | null } | null | undefined;
  switch (expiration?.type) {
    case 'afterDuration':
      return `After ${durationText(expiration.duration)}`;
    case 'afterDateTime':
      return expiration.endDateTime ? `On ${expiration.endDateTime.slice(0, 10)}` : 'On a date';
    case 'noExpiration':
      return 'Never';
    default:
      return 'Not set';
  }
}
