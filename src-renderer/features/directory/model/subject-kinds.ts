import type { SubjectSet } from '@shared/contract/directory';

// The kinds of "who" a policy names (allowed requestors, approvers, reviewers), in the admin
// center's words, and which kinds each place of the policy accepts.

export type SubjectKind = SubjectSet['@odata.type'] extends `#microsoft.graph.${infer K}` ? K : never;

export const SUBJECT_KIND_LABELS: Record<SubjectKind, string> = {
  singleUser: 'Specific user',
  groupMembers: 'Members of a group',
  requestorManager: "Requestor's manager",
  targetManager: "Target's manager",
  internalSponsors: 'Internal sponsors',
  externalSponsors: 'External sponsors',
  targetUserSponsors: "Target user's sponsors",
  targetApplicationOwners: 'Application owners',
  connectedOrganizationMembers: 'Connected organization',
  attributeRuleMembers: 'Users matching a rule',
  singleServicePrincipal: 'Specific service principal',
};

export type SubjectPlace = 'allowedTargets' | 'onBehalfRequestors' | 'approvers' | 'reviewers';

export const SUBJECT_KINDS_BY_PLACE: Record<SubjectPlace, SubjectKind[]> = {
  allowedTargets: ['singleUser', 'groupMembers', 'connectedOrganizationMembers', 'attributeRuleMembers', 'singleServicePrincipal'],
  onBehalfRequestors: ['singleUser', 'groupMembers', 'targetManager'],
  approvers: ['singleUser', 'groupMembers', 'requestorManager', 'internalSponsors', 'externalSponsors', 'targetUserSponsors'],
  reviewers: ['singleUser', 'groupMembers', 'requestorManager', 'targetManager', 'targetApplicationOwners'],
};

export const kindOf = (subject: SubjectSet): SubjectKind => subject['@odata.type'].replace('#microsoft.graph.', '') as SubjectKind;

/** A subject of a kind with its fields empty (or at their usual value). */
export function blankSubject(kind: SubjectKind): SubjectSet {
  const type = `#microsoft.graph.${kind}` as const;
  switch (kind) {
    case 'singleUser':
      return { '@odata.type': '#microsoft.graph.singleUser', userId: '', description: null };
    case 'groupMembers':
      return { '@odata.type': '#microsoft.graph.groupMembers', groupId: '', description: null };
    case 'requestorManager':
      return { '@odata.type': '#microsoft.graph.requestorManager', managerLevel: 1 };
    case 'targetManager':
      return { '@odata.type': '#microsoft.graph.targetManager', managerLevel: 1 };
    case 'connectedOrganizationMembers':
      return { '@odata.type': '#microsoft.graph.connectedOrganizationMembers', connectedOrganizationId: '', description: null };
    case 'attributeRuleMembers':
      return { '@odata.type': '#microsoft.graph.attributeRuleMembers', membershipRule: '', description: null };
    case 'singleServicePrincipal':
      return { '@odata.type': '#microsoft.graph.singleServicePrincipal', servicePrincipalId: '', description: null };
    default:
      return { '@odata.type': type } as SubjectSet;
  }
}
