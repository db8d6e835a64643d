import { badRequest, type GraphError } from './graph-error';
import type { PolicyBody } from './policy-body';
import { findUser, type Principals } from './principals';

type Path = (string | number)[];

/** Every subject set of a policy body with where it sits, e.g. requestApprovalSettings.stages.0.primaryApprovers.1. */
function* subjectSets(body: PolicyBody): Generator<[Path, Record<string, unknown>]> {
  const lists: [Path, unknown][] = [
    [['specificAllowedTargets'], body.specificAllowedTargets],
    [['requestorSettings', 'onBehalfRequestors'], body.requestorSettings.onBehalfRequestors],
    [['requestorSettings', 'allowedRequestors'], body.requestorSettings.allowedRequestors],
    [['reviewSettings', 'primaryReviewers'], body.reviewSettings?.primaryReviewers],
    [['reviewSettings', 'fallbackReviewers'], body.reviewSettings?.fallbackReviewers],
  ];
  (body.requestApprovalSettings?.stages ?? []).forEach((stage, i) => {
    for (const key of ['primaryApprovers', 'fallbackPrimaryApprovers', 'escalationApprovers', 'fallbackEscalationApprovers'] as const)
      lists.push([['requestApprovalSettings', 'stages', i, key], stage[key]]);
  });
  for (const [path, list] of lists)
    if (Array.isArray(list)) for (const [i, subject] of list.entries()) yield [[...path, i], subject as Record<string, unknown>];
}

/**
 * Graph resolves the users a policy names: a single-user approver, reviewer or requestor who
 * is not in the directory is refused with the path of the id, as the shape checks are.
 */
export function unknownUserInPolicy(body: PolicyBody, principals: Principals): GraphError | undefined {
  for (const [path, subject] of subjectSets(body)) {
    if (subject['@odata.type'] !== '#microsoft.graph.singleUser') continue;
    const userId = String(subject.userId ?? '');
    if (!findUser(principals, userId))
      return badRequest('InvalidModel', `The model is invalid. ${[...path, 'userId'].join('.')}: no user '${userId}' in the directory`);
  }
  return undefined;
}
