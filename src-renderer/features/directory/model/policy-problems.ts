import type { PolicyProblem } from '@shared/contract/directory';

// Problems with a policy, from the shared validation in the form or from Graph after a save,
// placed where the person can fix them: at a field of the form, in the tab that holds it.

export const POLICY_TABS = ['basics', 'requests', 'approval', 'questions', 'lifecycle', 'reviews', 'extensions', 'review'] as const;
export type PolicyTab = (typeof POLICY_TABS)[number];

export const POLICY_TAB_LABELS: Record<PolicyTab, string> = {
  basics: 'Basics',
  requests: 'Requests',
  approval: 'Approval',
  questions: 'Requestor information',
  lifecycle: 'Lifecycle',
  reviews: 'Access reviews',
  extensions: 'Custom extensions',
  review: 'Review',
};

/** `stages[0].primaryApprovers` → `stages.0.primaryApprovers`, the form's own path. */
export const fieldPath = (path: string): string => path.replace(/\[(\d+)\]/g, '.$1');

/** The tab whose form holds a field. */
export function tabOfPath(path: string): PolicyTab {
  const p = fieldPath(path);
  if (p.startsWith('requestApprovalSettings')) return 'approval';
  if (p.startsWith('questions')) return 'questions';
  if (p.startsWith('reviewSettings')) return 'reviews';
  if (p.startsWith('customExtensionStageSettings')) return 'extensions';
  if (
    p.startsWith('expiration') ||
    p === 'requestorSettings.enableTargetsToSelfUpdateAccess' ||
    p === 'requestorSettings.allowCustomAssignmentSchedule'
  )
    return 'lifecycle';
  if (
    p.startsWith('allowedTargetScope') ||
    p.startsWith('specificAllowedTargets') ||
    p.startsWith('automaticRequestSettings') ||
    p.startsWith('requestorSettings')
  )
    return 'requests';
  return 'basics';
}

/** react-hook-form's nested error shape: objects all the way down, a message where it belongs. */
export type NestedErrors = { [key: string]: NestedErrors | string | undefined; type?: string; message?: string };

/**
 * A message shown under its own field need not name the field again: "expiration.duration is
 * required" reads "Is required" there. Messages about other fields keep their words.
 */
function atField(problem: PolicyProblem): string {
  const rest = problem.message.startsWith(`${problem.path} `) ? problem.message.slice(problem.path.length + 1) : problem.message;
  return rest === problem.message ? rest : rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** The problems as the form's errors; the first problem at a field wins. */
export function problemsToErrors(problems: readonly PolicyProblem[]): NestedErrors {
  const root: NestedErrors = {};
  for (const problem of problems) {
    const parts = fieldPath(problem.path).split('.').filter(Boolean);
    if (parts.length === 0) parts.push('root');
    let node = root;
    for (const part of parts) node = (node[part] ??= {}) as NestedErrors;
    if (node.message === undefined) {
      node.type = problem.code;
      node.message = atField(problem);
    }
  }
  return root;
}

/** Graph's 400 for a policy, pointed at its field: "The model is invalid. <path>: <reason>". */
export function graphFieldError(message: string): { path: string; message: string } | null {
  const model = /^The model is invalid\. ([A-Za-z][\w.[\]]*): (.+)$/s.exec(message);
  if (model) return { path: fieldPath(model[1]!), message };
  return null;
}

/** How many problems each tab holds, for the badges on the tabs. */
export function problemsPerTab(paths: readonly string[]): Partial<Record<PolicyTab, number>> {
  const counts: Partial<Record<PolicyTab, number>> = {};
  for (const path of paths) {
    const tab = tabOfPath(path);
    counts[tab] = (counts[tab] ?? 0) + 1;
  }
  return counts;
}

/** Every path that holds a message in nested form errors. */
export function errorPaths(errors: unknown, prefix = ''): string[] {
  if (!errors || typeof errors !== 'object') return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(errors as Record<string, unknown>)) {
    if (key === 'ref' || key === 'type' || key === 'types') continue;
    if (key === 'message') {
      if (typeof value === 'string') out.push(prefix);
      continue;
    }
    out.push(...errorPaths(value, prefix ? `${prefix}.${key}` : key));
  }
  return out;
}
